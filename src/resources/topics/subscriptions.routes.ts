import { badRequest } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { CursorPage } from './cursor.js'
import { createSubscriptions, deleteSubscriptions } from './subscriptions.js'
import {
  CreateSubscriptionsBodySchema,
  DeleteSubscriptionsBodySchema,
  ListSubscriptionsQuerySchema,
  SubscriptionsResultSchema,
  TopicKeyParamsSchema,
  TopicSubscriptionListSchema,
} from './topics.schemas.js'
import type { Subscription } from './topics.store.js'
import { BOTH_CURSORS, emptyPage, topicNotFoundV2, topicsStyleCursor } from './topics.paging.js'
import { listedSubscription } from './topics.views.js'

const tags = ['Topic subscriptions']
const v2 = { existsIn: (g: { topics: { v2: boolean } }) => g.topics.v2 }
const path = '/v2/topics/:topicKey/subscriptions'

/** `?contextKeys=`: absent is no filter, empty is "no context", else the keys given. */
function contextKeysOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  if (value === '') return []
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== '').map(String)
}

/** Exact, order-insensitive context match; a subscription without context has none. */
function matchesContext(subscription: Subscription, keys: string[]): boolean {
  const own = subscription.contextKeys ?? []
  return own.length === keys.length && keys.every((k) => own.includes(k))
}

export const subscriptionRoutes = [
  defineRoute({
    method: 'GET',
    path,
    summary: "List a topic's subscriptions, newest first, with cursors",
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    query: ListSubscriptionsQuerySchema,
    numericQuery: ['limit'],
    responses: {
      200: { description: 'A page (not wrapped in data)', schema: TopicSubscriptionListSchema },
      404: { description: 'No topic with this key' },
    },
    handler(c, { env, params, query }) {
      const topic = env.topics.get(params.topicKey)
      if (!topic) throw topicNotFoundV2(params.topicKey)
      if (query.before && query.after) throw badRequest(BOTH_CURSORS)
      // No lower bound here: the command leaves `limit` unchecked.
      const limit = query.limit || 10
      const request = topicsStyleCursor(query, limit, (id) => env.topics.subscriptions.byId(id))
      const contextKeys = contextKeysOf(query.contextKeys)
      const subscriberId = query.subscriberId || undefined
      const filter =
        subscriberId !== undefined || contextKeys
          ? (s: Subscription) =>
              (subscriberId === undefined || s.externalSubscriberId === subscriberId) &&
              (!contextKeys || matchesContext(s, contextKeys))
          : undefined
      const page: CursorPage<Subscription> = request
        ? env.topics.subscriptions.page(topic._id, filter, { ...request, orderBy: '_id' })
        : emptyPage()
      // A subscription whose subscriber is gone is left out of the page.
      const data = page.data.flatMap((s) => {
        const subscriber: Subscriber | undefined = env.subscribers.byId(s._subscriberId)
        return subscriber ? [listedSubscription(s, subscriber, topic)] : []
      })
      return json(c, 200, { ...page, data })
    },
  }),
  defineRoute({
    method: 'POST',
    path,
    summary: 'Subscribe subscribers to a topic (created when missing); per-subscriber results',
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    body: CreateSubscriptionsBodySchema,
    responses: {
      201: {
        description: 'Some or all subscribed (not wrapped in data)',
        schema: SubscriptionsResultSchema,
      },
      400: { description: 'None subscribed: the same result, in the error body and its ctx' },
    },
    handler: (c, { env, params, body }) =>
      json(
        c,
        201,
        createSubscriptions(env, params.topicKey, {
          subscriberIds: body.subscriberIds,
          subscriptions: body.subscriptions,
          name: body.name,
        })
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path,
    summary: 'Unsubscribe subscribers from a topic (by subscriberId or identifier)',
    tags,
    auth: 'apiKey',
    ...v2,
    params: TopicKeyParamsSchema,
    body: DeleteSubscriptionsBodySchema,
    responses: {
      200: { description: 'Some or all removed (not wrapped)', schema: SubscriptionsResultSchema },
      400: { description: 'None removed: the result in the error body and its ctx' },
      404: { description: 'No topic with this key' },
    },
    handler: (c, { env, params, body }) =>
      json(
        c,
        200,
        deleteSubscriptions(env, params.topicKey, {
          subscriberIds: body.subscriberIds,
          subscriptions: body.subscriptions,
        })
      ),
  }),
]
