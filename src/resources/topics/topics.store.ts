/** Never changed once stored: GET /v1/topics keeps each topic's JSON (topics.routes.ts). */
export interface Topic {
  readonly _id: string
  readonly _environmentId: string
  readonly _organizationId: string
  readonly key: string
  readonly name: string
  readonly subscribers: readonly string[]
  readonly createdAt: string
  readonly updatedAt: string
}

export interface TopicPage {
  data: Topic[]
  totalCount: number
}

export interface TopicFilter {
  page: number
  pageSize: number
  key?: string
  name?: string
}

/**
 * Topics in insertion order (upstream's aggregation has no sort stage, so MongoDB returns
 * natural order), with a key index so a filtered page costs O(page), not O(collection).
 */
export function createTopicStore(initial: Topic[]) {
  const all: Topic[] = []
  const byKey = new Map<string, Topic[]>()

  function add(topic: Topic) {
    all.push(topic)
    const same = byKey.get(topic.key)
    if (same) same.push(topic)
    else byKey.set(topic.key, [topic])
  }
  initial.forEach(add)

  return {
    add,
    all: (): readonly Topic[] => all,
    list({ page, pageSize, key, name }: TopicFilter): TopicPage {
      const keyed = key ? (byKey.get(key) ?? []) : all
      const source = name ? keyed.filter((t) => t.name === name) : keyed
      const start = page * pageSize
      return { data: source.slice(start, start + pageSize), totalCount: source.length }
    },
  }
}

export type TopicStore = ReturnType<typeof createTopicStore>
