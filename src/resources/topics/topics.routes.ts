import { InternalError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { jsonText } from '../../http/respond.js'
import type { Generation } from '../../generations/generation.js'
import { TopicListSchema } from './topics.schemas.js'
import type { Topic } from './topics.store.js'

// Topics are never changed once stored (the Topic type is read-only), so their JSON is not
// either: each generation's projection of a topic is serialised once.
const TOPIC_JSON = new WeakMap<Generation['topics'], WeakMap<Topic, string>>()
function topicJson(rules: Generation['topics'], topic: Topic): string {
  let cache = TOPIC_JSON.get(rules)
  if (!cache) TOPIC_JSON.set(rules, (cache = new WeakMap()))
  let text = cache.get(topic)
  if (text === undefined) cache.set(topic, (text = JSON.stringify(rules.listItem(topic))))
  return text
}

export const topicRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/topics',
    summary: 'List topics, paginated and optionally filtered by exact key (and name)',
    tags: ['Topics'],
    auth: 'apiKey',
    query: (g) => g.topics.listQuery,
    numericQuery: ['page', 'pageSize'],
    responses: {
      200: { description: 'A page of topics (not wrapped in data)', schema: TopicListSchema },
    },
    handler(c, { env, query }) {
      const rules = env.generation.topics
      const { page, pageSize } = rules.paging(query)
      // Upstream passes $limit: 0 to MongoDB, which refuses it: a 500 with an errorId.
      if (pageSize === 0) throw new InternalError('pageSize=0 gives MongoDB a $limit of 0')
      const name = rules.filtersByName ? query.name || undefined : undefined
      const { data, totalCount } = env.topics.list({
        page,
        pageSize,
        key: query.key || undefined,
        name,
      })
      // The bytes JSON.stringify({ page, totalCount, pageSize, data }) gives, from each topic's
      // JSON kept since its first read: serialising the page was the route's largest cost.
      const head = `{"page":${JSON.stringify(page)},"totalCount":${totalCount},"pageSize":${JSON.stringify(pageSize)}`
      const items = data.map((topic) => topicJson(rules, topic))
      return jsonText(c, 200, `${head},"data":[${items.join(',')}]}`)
    },
  }),
]
