import { badRequest, InternalError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { ListTopicsQuerySchema, MAX_TOPIC_PAGE_SIZE, TopicListSchema } from './topics.schemas.js'

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
      return json(c, 200, { page, totalCount, pageSize, data })
    },
  }),
]
