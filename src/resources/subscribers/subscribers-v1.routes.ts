import { z } from 'zod'
import { CommandValidationError, httpError, InternalError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { field } from '../../http/validate.js'
import { isInt, max, min } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import { SUBSCRIBER_FIELDS, type Subscriber, type SubscriberPatch } from './subscribers.store.js'
import { upsertRecipient } from './subscriber-upsert.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * The v1 subscriber routes `@novu/node` calls (`subscribers.identify/get/update/delete`), on the
 * same store as /v2/subscribers. 2024-10 deletes softly; later servers delete for good.
 */

const tags = ['Subscribers']

type Body = Obj & { subscriberId?: unknown }

/** A v1 subscriber as the document reads: every stored field, then the `id` virtual. */
export function render(s: Subscriber): Obj {
  const { isOnline, ...rest } = s
  // The online flag exists only once the widget set it.
  const out: Obj = s.lastOnlineAt !== undefined ? { ...rest, isOnline } : { ...rest }
  out.id = s._id
  return out
}

/** A live subscriber (2024-10 keeps soft-deleted ones stored, and every read skips them). */
export function live(env: Environment, subscriberId: string): Subscriber | undefined {
  const found = env.subscribers.get(subscriberId)
  return found && !found.deleted ? found : undefined
}

const PageQuery = lazySchema(() =>
  z.object({
    page: field<number>('page', [isInt], { type: 'integer', default: 0 }, { optional: true }),
    limit: field<number>(
      'limit',
      [max(100), min(1), isInt],
      {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: 10,
      },
      { optional: true }
    ),
  })
)

export const subscriberV1Routes = [
  defineRoute({
    method: 'GET',
    path: '/v1/subscribers',
    summary: 'List subscribers, in creation order, a page at a time',
    tags,
    auth: 'apiKey',
    query: PageQuery,
    numericQuery: ['page', 'limit'],
    responses: { 200: { description: '{page, hasMore, pageSize, data}, not wrapped' } },
    handler(c, { env, query }) {
      const page = query.page ?? 0
      const limit = query.limit ?? 10
      if (page < 0) throw new InternalError('MongoDB refuses a negative skip')
      const all = env.subscribers.all().filter((s) => !s.deleted)
      const data = all.slice(page * limit, page * limit + limit).map(render)
      return json(c, 200, { page, hasMore: data.length === limit, pageSize: limit, data })
    },
  }),
  defineRoute<Record<string, string>, Record<string, unknown>, Body>({
    method: 'POST',
    path: '/v1/subscribers',
    summary: 'Create a subscriber, or update the one with this subscriberId (201 both ways)',
    tags,
    auth: 'apiKey',
    body: (g) => g.subscribersV1.createBody as z.ZodType<Body>,
    responses: { 201: { description: 'The subscriber, in data' } },
    handler(c, { env, body }) {
      const rules = env.generation.events.upsert
      const subscriberId = String(body.subscriberId).trim()
      if (!subscriberId)
        throw new CommandValidationError(env.generation.subscribersV1.createCommand, [
          { property: 'subscriberId', messages: ['subscriberId should not be empty'], value: '' },
        ])
      const stored = env.subscribers.get(subscriberId)
      // The unique index ignores `deleted`, and upstream's duplicate-key fallback never matches.
      if (stored?.deleted)
        throw new InternalError(
          `E11000 duplicate key error collection: subscribers dup key: { subscriberId: "${subscriberId}" }`
        )
      const fields: Obj = { ...body, subscriberId }
      // The v1 controller does not pass the time zone on.
      delete fields.timezone
      if (!stored) {
        const created = upsertRecipient(env, fields, rules, env.now())
        return json(c, 201, { data: render(created as Subscriber) })
      }
      const before = { ...stored }
      upsertRecipient(env, fields, rules, env.now())
      // The older use case answers the document it read with the changes laid over it.
      const answer = rules.nullClears ? stored : { ...stored, updatedAt: before.updatedAt }
      return json(c, 201, { data: render(answer) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscribers/:subscriberId',
    summary: 'Get a subscriber by subscriberId',
    tags,
    auth: 'apiKey',
    params: lazySchema(() => z.object({ subscriberId: z.string() })),
    responses: {
      200: { description: 'The subscriber, in data' },
      404: { description: 'No such subscriber' },
    },
    handler(c, { env, params }) {
      const subscriber = live(env, params.subscriberId)
      if (!subscriber) throw env.generation.messages.unknownSubscriber(params.subscriberId)
      return json(c, 200, { data: render(subscriber) })
    },
  }),
  defineRoute<{ subscriberId: string }, Record<string, unknown>, Body>({
    method: 'PUT',
    path: '/v1/subscribers/:subscriberId',
    summary: 'Update a subscriber (subscriberId and channels in the body are ignored)',
    tags,
    auth: 'apiKey',
    params: lazySchema(() => z.object({ subscriberId: z.string() })),
    body: (g) => g.subscribersV1.updateBody as z.ZodType<Body>,
    responses: {
      200: { description: 'The subscriber with the changes, in data' },
      400: { description: '`SubscriberId: <id> not found`' },
    },
    handler(c, { env, params, body }) {
      const subscriber = live(env, params.subscriberId)
      if (!subscriber) throw httpError(400, `SubscriberId: ${params.subscriberId} not found`)
      const rules = env.generation.events.upsert
      const patch: Obj = {}
      for (const name of SUBSCRIBER_FIELDS) {
        const value = body[name]
        if (value === undefined || !rules.fields.includes(name)) continue
        if (value === null && !rules.nullClears && name !== 'email') continue
        patch[name] = value
      }
      const changed = Object.entries(patch).some(
        ([name, value]) =>
          JSON.stringify((subscriber as unknown as Obj)[name]) !== JSON.stringify(value)
      )
      const answer = { ...subscriber, ...patch } as Subscriber
      if (changed) env.subscribers.update(subscriber, patch as SubscriberPatch, env.now())
      return json(c, 200, { data: render(answer) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/subscribers/:subscriberId',
    summary: 'Delete a subscriber and its topic subscriptions (its messages stay)',
    tags,
    auth: 'apiKey',
    params: lazySchema(() => z.object({ subscriberId: z.string() })),
    responses: {
      200: {
        description: 'Deleted',
        schema: lazySchema(() =>
          z.object({
            data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
          })
        ),
      },
      404: { description: 'No such subscriber' },
    },
    handler(c, { env, params }) {
      const subscriber = live(env, params.subscriberId)
      const rules = env.generation.subscribersV1
      if (!subscriber) throw rules.deleteUnknown(params.subscriberId)
      env.topics.subscriptions.remove(env.topics.subscriptions.ofSubscriber(subscriber._id))
      if (rules.softDelete) {
        subscriber.deleted = true
        ;(subscriber as unknown as Obj).deletedAt = env.now()
        env.subscribers.touch()
      } else env.subscribers.remove(subscriber)
      return json(c, 200, { data: { acknowledged: true, status: 'deleted' } })
    },
  }),
]
