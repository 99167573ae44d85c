import { InternalError } from '../../errors.js'
import { duplicateId } from '../../tenancy/unique-ids.js'
import { cursorPage, SortedIds, type CursorPage, type CursorRequest } from './cursor.js'

/**
 * A topic as upstream stores it, with the external ids of its subscriptions in their order
 * (what GET /v1/topics' `$lookup` projects as `subscribers`). Never changed once stored: every
 * write stores a new object, so a topic's JSON can be kept for as long as the object lives.
 */
export interface Topic {
  readonly _id: string
  readonly _environmentId: string
  readonly _organizationId: string
  readonly key: string
  /** Absent when a v2 create left it out (upstream's schema has no default); null if sent so. */
  readonly name?: string | null
  readonly subscribers: readonly string[]
  readonly createdAt: string
  readonly updatedAt: string
}

/** A topic subscription (upstream's `topicsubscribers` document). Never changed once stored. */
export interface Subscription {
  readonly _id: string
  readonly _environmentId: string
  readonly _organizationId: string
  readonly _subscriberId: string
  readonly _topicId: string
  readonly topicKey: string
  readonly externalSubscriberId: string
  readonly identifier: string
  readonly name?: string
  readonly contextKeys?: readonly string[]
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

/** GET /v2/topics: substring filters, any case; the cursor already found. */
export interface TopicCursorQuery extends CursorRequest<Topic> {
  key?: string
  name?: string
}

/** MongoDB's `$regex` on an escaped text with `$options: 'i'`: a substring, any case. */
export const containsIgnoringCase = (value: unknown, needle: string) =>
  typeof value === 'string' && value.toLowerCase().includes(needle.toLowerCase())

/** The fields of a stored topic document a sort can use; any other is missing. */
function topicField(topic: Topic, name: string): unknown {
  switch (name) {
    case '_id':
    case '_environmentId':
    case '_organizationId':
    case 'key':
    case 'name':
    case 'createdAt':
    case 'updatedAt':
      return topic[name]
    case '__v':
      return 0
    default:
      return undefined
  }
}

function subscriptionField(subscription: Subscription, name: string): unknown {
  return name === '_id' ? subscription._id : undefined
}

/** MongoDB's answer to a second document under a unique index (a 500 upstream). */
export function duplicateKey(collection: string, index: string, value: string): InternalError {
  return new InternalError(
    `E11000 duplicate key error collection: ${collection} index: ${index} dup key: { ${value} }`
  )
}

/**
 * Topics and their subscriptions, one environment's. Kept in insertion order (what upstream's
 * unsorted v1 aggregation returns), by key, and by `_id` (the v2 cursor), so that a page costs
 * O(page) whatever the collection's size; subscriptions by topic, by subscriber and by
 * identifier (unique in an environment, as upstream's index).
 */
export function createTopicStore(
  initial: readonly Topic[],
  subscriptions: readonly Subscription[]
) {
  const byId = new Map<string, Topic>()
  const byKey = new Map<string, Topic>()
  const inserted: string[] = []
  const sortedIds = new SortedIds()
  const byIdView = sortedIds.view((id) => byId.get(id) as Topic)

  const subsById = new Map<string, Subscription>()
  /** Per topic id: its subscriptions in insertion order, and their ids sorted. */
  const subsByTopic = new Map<string, { list: Subscription[]; ids: SortedIds }>()
  const subsBySubscriber = new Map<string, Set<string>>()
  const subsByIdentifier = new Map<string, Subscription>()
  /** Counts the writes: an answer built from the store holds while this stays the same. */
  let version = 0

  /** Stores the topic in place of the one with its id (or as a new one). */
  function put(topic: Topic) {
    version++
    const old = byId.get(topic._id)
    if (old && old.key !== topic.key) byKey.delete(old.key)
    byId.set(topic._id, topic)
    byKey.set(topic.key, topic)
    if (!old) {
      inserted.push(topic._id)
      sortedIds.insert(topic._id)
    }
    return topic
  }

  /** The topic with its `subscribers` list rebuilt from its subscriptions. */
  function refreshMembers(topicId: string) {
    const topic = byId.get(topicId)
    if (!topic) return
    const list = subsByTopic.get(topicId)?.list ?? []
    put({ ...topic, subscribers: list.map((s) => s.externalSubscriberId) })
  }

  function addSubscription(subscription: Subscription) {
    subsById.set(subscription._id, subscription)
    subsByIdentifier.set(subscription.identifier, subscription)
    let ofTopic = subsByTopic.get(subscription._topicId)
    if (!ofTopic)
      subsByTopic.set(subscription._topicId, (ofTopic = { list: [], ids: new SortedIds() }))
    ofTopic.list.push(subscription)
    ofTopic.ids.insert(subscription._id)
    let ofSubscriber = subsBySubscriber.get(subscription._subscriberId)
    if (!ofSubscriber) subsBySubscriber.set(subscription._subscriberId, (ofSubscriber = new Set()))
    ofSubscriber.add(subscription._id)
  }

  function dropSubscription(subscription: Subscription) {
    subsById.delete(subscription._id)
    if (subsByIdentifier.get(subscription.identifier) === subscription)
      subsByIdentifier.delete(subscription.identifier)
    const ofTopic = subsByTopic.get(subscription._topicId)
    if (ofTopic) {
      const at = ofTopic.list.indexOf(subscription)
      if (at !== -1) ofTopic.list.splice(at, 1)
      ofTopic.ids.remove(subscription._id)
      if (!ofTopic.list.length) subsByTopic.delete(subscription._topicId)
    }
    subsBySubscriber.get(subscription._subscriberId)?.delete(subscription._id)
  }

  for (const topic of initial) {
    if (byKey.has(topic.key))
      throw duplicateKey('topics', '_environmentId_1_key_1', `key: ${JSON.stringify(topic.key)}`)
    if (byId.has(topic._id)) throw duplicateId('topics', topic._id)
    put(topic)
  }
  for (const subscription of subscriptions) {
    if (subsByIdentifier.has(subscription.identifier))
      throw duplicateKey(
        'topicsubscribers',
        '_environmentId_1_identifier_1',
        `identifier: ${JSON.stringify(subscription.identifier)}`
      )
    if (subsById.has(subscription._id)) throw duplicateId('topicsubscribers', subscription._id)
    addSubscription(subscription)
  }
  for (const topicId of subsByTopic.keys()) refreshMembers(topicId)

  const subscriptionsOf = (topicId: string): readonly Subscription[] =>
    subsByTopic.get(topicId)?.list ?? []

  return {
    /** How many writes the store has seen: any change to a topic or a subscription moves it. */
    version: () => version,
    /** Every topic, in insertion order. */
    all: (): Topic[] => inserted.map((id) => byId.get(id) as Topic),
    get: (key: string) => byKey.get(key),
    byId: (id: string) => byId.get(id),
    size: () => inserted.length,

    /** GET /v1/topics: a page in insertion order, optionally by exact key and name. */
    list({ page, pageSize, key, name }: TopicFilter): TopicPage {
      const start = page * pageSize
      if (key) {
        const found = byKey.get(key)
        const source = found && (!name || found.name === name) ? [found] : []
        return { data: source.slice(start, start + pageSize), totalCount: source.length }
      }
      if (name) {
        const source = inserted.map((id) => byId.get(id) as Topic).filter((t) => t.name === name)
        return { data: source.slice(start, start + pageSize), totalCount: source.length }
      }
      const ids = inserted.slice(start, start + pageSize)
      return { data: ids.map((id) => byId.get(id) as Topic), totalCount: inserted.length }
    },

    /** GET /v2/topics: upstream's cursor pagination with substring filters. */
    page(query: TopicCursorQuery): CursorPage<Topic> {
      const { key, name } = query
      const matches =
        key || name
          ? (t: Topic) =>
              (!key || containsIgnoringCase(t.key, key)) &&
              (!name || containsIgnoringCase(t.name, name))
          : undefined
      return cursorPage(byIdView, matches, topicField, query)
    },

    /** A new topic, or one with its fields replaced (same id and position). */
    put,

    remove(topic: Topic) {
      version++
      for (const subscription of [...subscriptionsOf(topic._id)]) dropSubscription(subscription)
      byId.delete(topic._id)
      if (byKey.get(topic.key) === topic) byKey.delete(topic.key)
      const at = inserted.indexOf(topic._id)
      if (at !== -1) inserted.splice(at, 1)
      sortedIds.remove(topic._id)
    },

    subscriptions: {
      /** Every subscription, topic by topic in topic order, each topic's in insertion order. */
      all: (): Subscription[] => inserted.flatMap((id) => [...subscriptionsOf(id)]),
      ofTopic: subscriptionsOf,
      byId: (id: string) => subsById.get(id),
      byIdentifier: (identifier: string) => subsByIdentifier.get(identifier),
      /** The subscriptions of one subscriber (by internal id), in no particular order. */
      ofSubscriber(subscriberInternalId: string): Subscription[] {
        const ids = subsBySubscriber.get(subscriberInternalId)
        return ids ? [...ids].map((id) => subsById.get(id) as Subscription) : []
      },
      /** Adds new subscriptions, or replaces stored ones (same id), then refreshes the topics. */
      save(changed: readonly Subscription[]) {
        version++
        const topics = new Set<string>()
        for (const subscription of changed) {
          const old = subsById.get(subscription._id)
          if (old) {
            const ofTopic = subsByTopic.get(old._topicId)
            const at = ofTopic ? ofTopic.list.indexOf(old) : -1
            if (ofTopic && at !== -1) ofTopic.list[at] = subscription
            subsById.set(subscription._id, subscription)
            if (subsByIdentifier.get(old.identifier) === old)
              subsByIdentifier.delete(old.identifier)
            subsByIdentifier.set(subscription.identifier, subscription)
          } else addSubscription(subscription)
          topics.add(subscription._topicId)
        }
        for (const topicId of topics) refreshMembers(topicId)
      },
      remove(doomed: readonly Subscription[]) {
        version++
        const topics = new Set<string>()
        for (const subscription of doomed) {
          if (subsById.get(subscription._id) !== subscription) continue
          dropSubscription(subscription)
          topics.add(subscription._topicId)
        }
        for (const topicId of topics) refreshMembers(topicId)
      },
      /** GET /v2/topics/{key}/subscriptions: cursor pages on `_id` within one topic. */
      page(
        topicId: string,
        matches: ((s: Subscription) => boolean) | undefined,
        query: CursorRequest<Subscription>
      ): CursorPage<Subscription> {
        const ofTopic = subsByTopic.get(topicId)
        const ids = ofTopic?.ids ?? new SortedIds()
        return cursorPage(
          ids.view((id) => subsById.get(id) as Subscription),
          matches,
          subscriptionField,
          query
        )
      },
    },
  }
}

export type TopicStore = ReturnType<typeof createTopicStore>
