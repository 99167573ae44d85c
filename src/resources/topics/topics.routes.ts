import { badRequest, InternalError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { jsonText } from '../../http/respond.js'
import { ListTopicsQuerySchema, MAX_TOPIC_PAGE_SIZE, TopicListSchema } from './topics.schemas.js'
import type { Topic } from './topics.store.js'

// Topics are never changed once stored (the Topic type is read-only), so their JSON is too.
const TOPIC_JSON = new WeakMap<Topic, string>()
function topicJson(topic: Topic): string {
  let text = TOPIC_JSON.get(topic)
  if (text === undefined) TOPIC_JSON.set(topic, (text = JSON.stringify(topic)))
  return text
}

export const topicRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/topics',
    summary: 'List topics, paginated and optionally filtered by exact key',
    tags: ['Topics'],
    auth: 'apiKey',
    query: ListTopicsQuerySchema,
    numericQuery: ['page', 'pageSize'],
    responses: {
      200: { description: 'A page of topics (not wrapped in data)', schema: TopicListSchema },
    },
    handler(c, { env, query }) {
      const page = query.page ?? 0
      const pageSize = query.pageSize ?? 10
      // The typo is upstream's.
      if (pageSize > MAX_TOPIC_PAGE_SIZE) throw badRequest('Page size can not be larger then 10')
      // Upstream passes $limit: 0 to MongoDB, which refuses it: a 500 with an errorId.
      if (pageSize === 0) throw new InternalError('pageSize=0 gives MongoDB a $limit of 0')
      const { data, totalCount } = env.topics.list({ page, pageSize, key: query.key || undefined })
      // The bytes JSON.stringify({ page, totalCount, pageSize, data }) gives, from each topic's
      // JSON kept since its first read: serialising the page was the route's largest cost.
      const head = `{"page":${JSON.stringify(page)},"totalCount":${totalCount},"pageSize":${JSON.stringify(pageSize)}`
      return jsonText(c, 200, `${head},"data":[${data.map(topicJson).join(',')}]}`)
    },
  }),
]
