import { z } from 'zod'
import { badRequest, httpError, InternalError, notFound } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json, jsonAnswer, jsonText, queryText } from '../../http/respond.js'
import { cachedAnswer } from '../../http/answer-cache.js'
import { textBytes, WeakCache } from '../../cache.js'
import type { Generation } from '../../generations/generation.js'
import type { Environment } from '../../tenancy/environment.js'
import {
  CreateTopicV1BodySchema,
  RenameTopicV1BodySchema,
  TopicKeyParamsSchema,
  TopicListSchema,
  TopicMemberParamsSchema,
  TopicMembersV1BodySchema,
  TopicSchema,
} from './topics.schemas.js'
import type { Topic } from './topics.store.js'
import { castSubscriberIds, newTopic, upsertDefaultSubscriptions } from './memberships.js'
import { lazySchema } from '../../lazy-schema.js'

// A stored topic is never changed (a write stores a new object), so neither is its JSON: a
// topic's projection in its environment's generation is serialised once, and a write makes a new one.
const topicTexts = new WeakCache<Topic, { rules: Generation['topics']; text: string }>(
  'topic JSON',
  ({ text }) => 64 + textBytes(text)
)
function topicJson(rules: Generation['topics'], topic: Topic): string {
  const found = topicTexts.get(topic)
  if (found?.rules === rules) return found.text
  return topicTexts.set(topic, { rules, text: JSON.stringify(rules.listItem(topic)) }).text
}

const tags = ['Topics']

const topicNotFound = (env: Environment, key: string) =>
  notFound(`Topic not found for id ${key} in the environment ${env._environmentId}`)

/**
 * Upstream's CreateTopicUseCase, as POST /v1/topics and the membership route's auto-create run
 * it: the newer command trims, a taken key is a 409, and an empty key fails Mongoose's
 * `required` (a 500).
 */
function createTopicV1(env: Environment, sentKey: string, sentName: string): Topic {
  const { trimsOnCreate } = env.generation.topics
  const key = trimsOnCreate ? sentKey.trim() : sentKey
  const name = trimsOnCreate ? sentName.trim() : sentName
  if (env.topics.get(key))
    throw httpError(
      409,
      `Topic exists with key ${key} in the environment ${env._environmentId} of the organization ${env._organizationId}`
    )
  if (key === '') throw new InternalError('Topic validation failed: key: Path `key` is required.')
  return env.topics.put(newTopic(env, key, name))
}

const wrappedTopic = lazySchema(() => z.object({ data: TopicSchema }))

export const topicRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/topics',
    summary: 'List topics, paginated and optionally filtered by exact key (and name)',
    tags,
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
      const key = query.key || undefined
      // The page is built once per version of the store (see answer-cache.ts).
      const answer = cachedAnswer(
        [env.topics],
        'GET /v1/topics',
        // The query's text: the page, the size and the filters are all made from it.
        queryText(c),
        () => {
          const { data, totalCount } = env.topics.list({ page, pageSize, key, name })
          // The bytes JSON.stringify({ page, totalCount, pageSize, data }) gives, from each
          // topic's JSON kept since its first read.
          const head = `{"page":${JSON.stringify(page)},"totalCount":${totalCount},"pageSize":${JSON.stringify(pageSize)}`
          const items = data.map((topic) => topicJson(rules, topic))
          return `${head},"data":[${items.join(',')}]}`
        }
      )
      return jsonAnswer(c, 200, answer)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/topics',
    summary: 'Create a topic (v1: 409 when the key is taken)',
    tags,
    auth: 'apiKey',
    body: CreateTopicV1BodySchema,
    responses: {
      201: {
        description: 'Created: only its id and key',
        schema: lazySchema(() =>
          z.object({ data: z.object({ _id: z.string(), key: z.string() }) })
        ),
      },
      409: { description: 'The key is taken' },
    },
    handler(c, { env, body }) {
      const topic = createTopicV1(env, body.key, body.name)
      return json(c, 201, { data: { _id: topic._id, key: topic.key } })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/topics/:topicKey',
    summary: 'Get a topic by key, with its subscribers',
    tags,
    auth: 'apiKey',
    params: TopicKeyParamsSchema,
    responses: {
      200: { description: 'The topic', schema: wrappedTopic },
      404: { description: 'No topic with this key' },
    },
    handler(c, { env, params }) {
      const topic = env.topics.get(params.topicKey)
      if (!topic) throw topicNotFound(env, params.topicKey)
      return jsonText(c, 200, `{"data":${topicJson(env.generation.topics, topic)}}`)
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/topics/:topicKey',
    summary: 'Rename a topic',
    tags,
    auth: 'apiKey',
    params: TopicKeyParamsSchema,
    body: RenameTopicV1BodySchema,
    responses: {
      200: { description: 'The renamed topic', schema: wrappedTopic },
      404: { description: 'No topic with this key' },
    },
    handler(c, { env, params, body }) {
      const topic = env.topics.get(params.topicKey)
      if (!topic) throw topicNotFound(env, params.topicKey)
      if (env.generation.topics.requiresName && !body.name) throw badRequest('Name is required')
      const renamed = env.topics.put({ ...topic, name: body.name, updatedAt: env.now() })
      return jsonText(c, 200, `{"data":${topicJson(env.generation.topics, renamed)}}`)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/topics/:topicKey',
    summary: 'Delete a topic that has no subscribers',
    tags,
    auth: 'apiKey',
    params: TopicKeyParamsSchema,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'No topic with this key' },
      409: { description: 'The topic still has subscribers' },
    },
    handler(c, { env, params }) {
      const topic = env.topics.get(params.topicKey)
      if (!topic) throw topicNotFound(env, params.topicKey)
      if (topic.subscribers.length !== 0)
        throw httpError(
          409,
          `Topic with key ${params.topicKey} in the environment ${env._environmentId} can't be deleted as it still has subscribers assigned`
        )
      env.topics.remove(topic)
      return c.body(null, 204)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/topics/:topicKey/subscribers',
    summary: 'Add subscribers to a topic (created when missing)',
    tags,
    auth: 'apiKey',
    params: TopicKeyParamsSchema,
    body: TopicMembersV1BodySchema,
    responses: {
      200: {
        description: 'Who was added, and who does not exist (`failed` only then)',
        schema: lazySchema(() =>
          z.object({
            data: z.object({
              succeeded: z.array(z.string()),
              failed: z.object({ notFound: z.array(z.unknown()) }).optional(),
            }),
          })
        ),
      },
    },
    handler(c, { env, params, body }) {
      // Upstream finds or creates the topic before it looks the subscribers up.
      const topic =
        env.topics.get(params.topicKey) ??
        createTopicV1(env, params.topicKey, `Autogenerated-${params.topicKey}`)
      const wanted = castSubscriberIds(body.subscribers)
      const found = env.subscribers.findMany(wanted)
      upsertDefaultSubscriptions(env, topic, found)
      const notFound = new Set(body.subscribers)
      for (const subscriber of found) notFound.delete(subscriber.subscriberId)
      const succeeded = found.map((s) => s.subscriberId)
      const failed = notFound.size ? { failed: { notFound: [...notFound] } } : {}
      return json(c, 200, { data: { succeeded, ...failed } })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/topics/:topicKey/subscribers/removal',
    summary: 'Remove subscribers from a topic',
    tags,
    auth: 'apiKey',
    params: TopicKeyParamsSchema,
    body: TopicMembersV1BodySchema,
    responses: {
      204: { description: 'Removed (also when nobody or no topic matched)' },
    },
    handler(c, { env, params, body }) {
      const wanted = new Set(castSubscriberIds(body.subscribers))
      const topic = env.topics.get(params.topicKey)
      if (topic)
        env.topics.subscriptions.remove(
          env.topics.subscriptions
            .ofTopic(topic._id)
            .filter((s) => wanted.has(s.externalSubscriberId))
        )
      return c.body(null, 204)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/topics/:topicKey/subscribers/:externalSubscriberId',
    summary: "Check that a subscriber belongs to a topic (@novu/api's topics.subscribers.retrieve)",
    tags,
    auth: 'apiKey',
    params: TopicMemberParamsSchema,
    responses: {
      200: {
        description: 'The membership',
        schema: lazySchema(() => z.object({ data: z.looseObject({}) })),
      },
      404: { description: 'Not a member' },
    },
    handler(c, { env, params }) {
      const topic = env.topics.get(params.topicKey)
      const membership = topic
        ? env.topics.subscriptions
            .ofTopic(topic._id)
            .find((s) => s.externalSubscriberId === params.externalSubscriberId)
        : undefined
      if (!membership)
        throw notFound(
          `Subscriber ${params.externalSubscriberId} not found for topic ${params.topicKey} in the environment ${env._environmentId}`
        )
      return json(c, 200, { data: env.generation.topics.member(membership) })
    },
  }),
]
