import { z } from 'zod'
import { badRequest, httpError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json, jsonAnswer, queryText } from '../../http/respond.js'
import { cachedAnswer } from '../../http/answer-cache.js'
import type { Environment } from '../../tenancy/environment.js'
import { newTopic } from './memberships.js'
import {
  BOTH_CURSORS,
  checkLimit,
  emptyPage,
  topicNotFoundV2,
  topicsStyleCursor,
  VALID_ID,
} from './topics.paging.js'
import {
  FailIfExistsQuerySchema,
  ListTopicsQuerySchema,
  TopicKeyParamsSchema,
  TopicV2ListSchema,
  TopicV2Schema,
  UpdateTopicBodySchema,
  UpsertTopicBodySchema,
} from './topics.schemas.js'
import type { Topic } from './topics.store.js'
import { topicDto } from './topics.views.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Topics']
const v2 = { existsIn: (g: { topics: { v2: boolean } }) => g.topics.v2 }

function topicV2(env: Environment, key: string): Topic {
  const topic = env.topics.get(key)
  if (!topic) throw topicNotFoundV2(key)
  return topic
}

const wrapped = lazySchema(() => z.object({ data: TopicV2Schema }))

export const topicV2Routes = [
  defineRoute({
    method: 'GET',
    path: '/v2/topics',
    summary: 'List topics, newest first, with cursors (`next`, `previous`) and substring filters',
    tags,
    auth: 'apiKey',
    ...v2,
    query: ListTopicsQuerySchema,
    numericQuery: ['limit'],
    responses: {
      200: { description: 'A page of topics (not wrapped in data)', schema: TopicV2ListSchema },
      400: { description: 'Both `before` and `after`' },
    },
    handler(c, { env, query }) {
      const limit = query.limit || 10
      checkLimit('ListTopicsCommand', limit)
      if (query.before && query.after) throw badRequest(BOTH_CURSORS)
      const request = topicsStyleCursor(query, limit, (id) => env.topics.byId(id))
      const key = query.key || undefined
      const name = query.name || undefined
      // The page is built once per version of the store (see answer-cache.ts).
      const answer = cachedAnswer(
        [env.topics],
        'GET /v2/topics',
        // The query's text: the limit, the cursor and the filters are all made from it.
        queryText(c),
        () => {
          const page = request ? env.topics.page({ ...request, key, name }) : emptyPage<Topic>()
          return JSON.stringify({ ...page, data: page.data.map(topicDto) })
        }
      )
      return jsonAnswer(c, 200, answer)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/topics',
    summary: 'Create a topic, or update its name (201 both ways, answering the topic as it was)',
    tags,
    auth: 'apiKey',
    ...v2,
    query: FailIfExistsQuerySchema,
    body: UpsertTopicBodySchema,
    responses: {
      201: { description: 'Created, or updated', schema: wrapped },
      400: { description: 'A new key with characters upstream refuses' },
      409: { description: 'With failIfExists=true: the key is taken' },
    },
    handler(c, { env, query, body }) {
      const existing = env.topics.get(body.key)
      if (query.failIfExists === 'true' && existing)
        throw httpError(409, `Topic with key "${body.key}" already exists`)
      if (!existing) {
        if (!VALID_ID.test(body.key))
          throw badRequest(
            `Invalid topic key: "${body.key}". Topic keys must contain only alphanumeric characters (a-z, A-Z, 0-9), hyphens (-), underscores (_), colons (:), or be a valid email address.`
          )
        const created = env.topics.put(newTopic(env, body.key, body.name))
        return json(c, 201, { data: topicDto(created) })
      }
      // findOneAndUpdate without `new`: the answer is the document before the update.
      env.topics.put({
        ...existing,
        ...(body.name ? { name: body.name } : {}),
        updatedAt: env.now(),
      })
      return json(c, 201, { data: topicDto(existing) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/topics/:topicKey',
    summary: 'Get a topic by key',
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    responses: {
      200: { description: 'The topic', schema: wrapped },
      404: { description: 'No topic with this key' },
    },
    handler: (c, { env, params }) =>
      json(c, 200, { data: topicDto(topicV2(env, params.topicKey)) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/topics/:topicKey',
    summary: 'Rename a topic',
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    body: UpdateTopicBodySchema,
    responses: {
      200: { description: 'The renamed topic', schema: wrapped },
      404: { description: 'No topic with this key' },
    },
    handler(c, { env, params, body }) {
      const topic = topicV2(env, params.topicKey)
      const renamed = env.topics.put({ ...topic, name: body.name, updatedAt: env.now() })
      return json(c, 200, { data: topicDto(renamed) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/topics/:topicKey',
    summary: 'Delete a topic and its subscriptions',
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    responses: {
      200: {
        description: 'Deleted',
        schema: lazySchema(() => z.object({ data: z.object({ acknowledged: z.literal(true) }) })),
      },
      404: { description: 'No topic with this key' },
    },
    handler(c, { env, params }) {
      env.topics.remove(topicV2(env, params.topicKey))
      return json(c, 200, { data: { acknowledged: true } })
    },
  }),
]
