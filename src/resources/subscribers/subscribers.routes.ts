import { z } from 'zod'
import { badRequest, httpError, InternalError, objectError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { Environment } from '../../tenancy/environment.js'
import { checkLimit, emptyPage } from '../topics/topics.paging.js'
import type { CursorRequest } from '../topics/cursor.js'
import { subscriberDocument } from './subscribers.seed.js'
import {
  CreateSubscriberBodySchema,
  ListSubscribersQuerySchema,
  PatchSubscriberBodySchema,
  SubscriberIdParamsSchema,
  SubscriberV2ListSchema,
  SubscriberV2Schema,
  type SubscriberFieldsBody,
} from './subscribers.schemas.js'
import { SUBSCRIBER_FIELDS, type Subscriber, type SubscriberPatch } from './subscribers.store.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Subscribers']
const v2 = { existsIn: (g: { subscribers: { v2: boolean } }) => g.subscribers.v2 }

/** Upstream's `mapSubscriberEntityToDto`: its fields in its order, absent ones left out. */
const subscriberDto = (s: Subscriber) => ({
  _id: s._id,
  firstName: s.firstName,
  lastName: s.lastName,
  email: s.email,
  phone: s.phone,
  avatar: s.avatar,
  subscriberId: s.subscriberId,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  _environmentId: s._environmentId,
  _organizationId: s._organizationId,
  deleted: s.deleted,
  data: s.data,
  lastOnlineAt: s.lastOnlineAt ?? null,
  isOnline: s.isOnline ?? null,
  channels: s.channels ?? [],
  locale: s.locale,
  timezone: s.timezone,
})

/** MongoDB stores no document nested deeper than 100 levels (the subscriber is the first). */
const MAX_BSON_DEPTH = 100

function depthOf(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [item, depth] = stack.pop() as [unknown, number]
    if (item === null || typeof item !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > MAX_BSON_DEPTH) return deepest
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return deepest
}

function checkStorable(data: unknown) {
  if (1 + depthOf(data) > MAX_BSON_DEPTH)
    throw new InternalError('MongoServerError: BSONObj exceeds maximum nested object depth')
}

/** The fields a write sets: every one sent, null included (upstream's `!== undefined`). */
function patchOf(body: SubscriberFieldsBody): SubscriberPatch {
  const patch: Record<string, unknown> = {}
  for (const name of SUBSCRIBER_FIELDS) if (body[name] !== undefined) patch[name] = body[name]
  return patch as SubscriberPatch
}

/** lodash's `isEqual` for JSON values: key order does not matter. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) &&
      deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
  )
}

/** Upstream's `subscriberNeedUpdate`: a field sent with another value than stored. */
function changes(subscriber: Subscriber, patch: SubscriberPatch): boolean {
  return SUBSCRIBER_FIELDS.some(
    (name) =>
      name in patch &&
      (name === 'data' ? !deepEqual(subscriber.data, patch.data) : subscriber[name] !== patch[name])
  )
}

const wrapped = lazySchema(() => z.object({ data: SubscriberV2Schema }))

function subscriberOr404(env: Environment, subscriberId: string, message: string) {
  const subscriber = env.subscribers.get(subscriberId)
  if (!subscriber) throw httpError(404, message)
  return subscriber
}

export const subscriberRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v2/subscribers',
    summary: 'Search subscribers, newest first, with cursors and filters',
    tags,
    auth: 'apiKey',
    ...v2,
    query: ListSubscribersQuerySchema,
    responses: {
      200: { description: 'A page (not wrapped in data)', schema: SubscriberV2ListSchema },
    },
    handler(c, { env, query }) {
      // `@Type(() => Number)`, then `Number(limit || '10')`: 0 and NaN give 10, a list NaN.
      const sent = query.limit
      const parsed = Array.isArray(sent) ? NaN : sent === undefined ? undefined : Number(sent)
      const limit = Array.isArray(sent) ? NaN : Number(parsed || '10')
      checkLimit('ListSubscribersCommand', limit)
      if (query.before && query.after) throw badRequest(BOTH)
      const cursorId = query.after || query.before
      if (cursorId && !/^[0-9a-f]{24}$/.test(cursorId)) return json(c, 200, emptyPage())
      const cursor = cursorId ? env.subscribers.byId(cursorId) : undefined
      if (cursorId && !cursor) return json(c, 200, emptyPage())
      const request: CursorRequest<Subscriber> = {
        limit,
        // Only an exact DESC sorts descending here: the repository takes the text as it is.
        direction: (query.orderDirection || 'DESC') === 'DESC' ? 'DESC' : 'ASC',
        orderBy: query.orderBy || '_id',
        includeCursor: query.includeCursor === 'true',
        ...(cursor ? (query.before ? { before: cursor } : { after: cursor }) : {}),
      }
      const page = env.subscribers.page({
        ...request,
        email: query.email || undefined,
        phone: query.phone || undefined,
        subscriberId: query.subscriberId || undefined,
        name: query.name || undefined,
      })
      return json(c, 200, { ...page, data: page.data.map(subscriberDto) })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/subscribers',
    summary: 'Create a subscriber, or update it (201 both ways, answering it as stored)',
    tags,
    auth: 'apiKey',
    ...v2,
    query: lazySchema(() =>
      z.object({
        failIfExists: z.unknown().optional().meta({
          type: 'boolean',
          description: 'only `true` refuses an existing subscriberId (409)',
        }),
      })
    ),
    body: CreateSubscriberBodySchema,
    responses: {
      201: { description: 'Created or updated', schema: wrapped },
      409: { description: 'With failIfExists=true: the subscriberId exists' },
    },
    handler(c, { env, query, body }) {
      const existing = env.subscribers.get(body.subscriberId)
      if (query.failIfExists === 'true' && existing)
        throw httpError(409, `Subscriber with id "${body.subscriberId}" already exists`)
      // The controller sends `data: body.data || {}`: an upsert without data empties it.
      const patch = { ...patchOf(body), data: body.data || {} }
      checkStorable(patch.data)
      const at = env.now()
      if (existing) {
        if (changes(existing, patch)) env.subscribers.update(existing, patch, at)
        return json(c, 201, { data: subscriberDto(existing) })
      }
      const created = env.subscribers.add(
        subscriberDocument(env, {
          _id: env.newId(),
          subscriberId: body.subscriberId,
          ...patch,
          createdAt: at,
        })
      )
      return json(c, 201, { data: subscriberDto(created) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/subscribers/:subscriberId',
    summary: 'Get a subscriber by subscriberId',
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberIdParamsSchema,
    responses: {
      200: { description: 'The subscriber', schema: wrapped },
      404: { description: 'No such subscriber' },
    },
    handler: (c, { env, params }) =>
      json(c, 200, {
        data: subscriberDto(
          subscriberOr404(
            env,
            params.subscriberId,
            `Subscriber: ${params.subscriberId} was not found`
          )
        ),
      }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/subscribers/:subscriberId',
    summary: 'Update some fields of a subscriber (null clears one)',
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberIdParamsSchema,
    body: PatchSubscriberBodySchema,
    responses: {
      200: { description: 'The subscriber (with its previous updatedAt)', schema: wrapped },
      404: { description: 'No such subscriber' },
    },
    handler(c, { env, params, body }) {
      const subscriber = subscriberOr404(
        env,
        params.subscriberId,
        `Subscriber ${params.subscriberId} was not found`
      )
      const patch = patchOf(body)
      if (!changes(subscriber, patch)) return json(c, 200, { data: subscriberDto(subscriber) })
      checkStorable(patch.data)
      // Upstream answers the document it read with the changes laid over it: the old updatedAt.
      const answer = subscriberDto({ ...subscriber, ...patch })
      env.subscribers.update(subscriber, patch, env.now())
      return json(c, 200, { data: answer })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/subscribers/:subscriberId',
    summary: 'Delete a subscriber, its topic subscriptions and its messages',
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberIdParamsSchema,
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
      const subscriber = env.subscribers.get(params.subscriberId)
      if (!subscriber)
        throw objectError(404, {
          message: 'Subscriber was not found',
          externalSubscriberId: params.subscriberId,
        })
      env.subscribers.remove(subscriber)
      env.topics.subscriptions.remove(env.topics.subscriptions.ofSubscriber(subscriber._id))
      env.messages.removeBySubscriber(subscriber._id)
      return json(c, 200, { data: { acknowledged: true, status: 'deleted' } })
    },
  }),
]

const BOTH = 'Cannot specify both "before" and "after" cursors at the same time.'
