import { z } from 'zod'
import { emitMessageAction } from '../../webhooks/message-events.js'
import { CommandValidationError, httpError, badRequest } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { isObjectId } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Message } from '../messages/messages.store.js'
import { requireSubscriber } from '../preferences/preferences.service.js'
import { inboxErrors, splitMessageIds } from './inbox.generations.js'
import { applyMark, feedPage, type Mark } from './inbox.store.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * A subscriber's in-app feed read and marked through the API key (`@novu/node`'s
 * `getNotificationsFeed`, `markMessageAs`…, `@novu/api`'s `subscribers.notifications/messages`).
 */

const tags = ['Subscriber inbox']
const SubscriberParams = lazySchema(() => z.object({ subscriberId: z.string() }))
const ActionParams = lazySchema(() =>
  z.object({ subscriberId: z.string(), messageId: z.string(), type: z.string() })
)

const flag = (value: unknown) => (value === undefined ? undefined : value === 'true')

/** `payload` as the feed takes it: base64 of a JSON object. */
function payloadFilter(sent: unknown): Obj | undefined {
  if (sent === undefined || sent === '') return undefined
  try {
    const parsed: unknown = JSON.parse(Buffer.from(String(sent), 'base64').toString('utf8'))
    if (parsed !== null && typeof parsed === 'object') return parsed as Obj
  } catch {
    // Falls through to upstream's 400.
  }
  throw badRequest('Invalid payload, the JSON object should be encoded to base64 string.')
}

/** The feed populates `_id firstName lastName avatar subscriberId`: what the document lacks stays out. */
function feedSubscriber(s: Message['subscriber']): Obj {
  const out: Obj = { _id: s._id }
  for (const name of ['firstName', 'lastName', 'avatar'] as const)
    if (s[name] !== undefined && s[name] !== null) out[name] = s[name]
  out.subscriberId = s.subscriberId
  return out
}

function feedItem(env: Environment, m: Message) {
  const workflow = env.workflows.get(m._templateId)
  return {
    ...m,
    subscriber: feedSubscriber(m.subscriber),
    actorSubscriber: null,
    template: { _id: m._templateId, tags: workflow?.tags ?? [] },
    id: m._id,
  }
}

export const inboxRoutes = [
  defineRoute<{ subscriberId: string }, { page?: number; limit?: number }, unknown>({
    method: 'GET',
    path: '/v1/subscribers/:subscriberId/notifications/feed',
    summary: "The subscriber's in-app messages, newest first, a page at a time",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    query: (g) => g.inbox.feedQuery,
    numericQuery: ['page', 'limit'],
    responses: { 200: { description: '{data, totalCount, hasMore, pageSize, page}, not wrapped' } },
    handler(c, { env, params, query }) {
      const rules = env.generation.inbox
      const page = query.page ?? 0
      const limit = query.limit ?? 10
      if (page < 0) rules.negativePage()
      const payload = payloadFilter(c.req.query('payload'))
      const subscriber = requireSubscriber(env, params.subscriberId, inboxErrors.feed)
      const feeds = c.req.queries('feedIdentifier')
      const result = feedPage(env, subscriber.subscriberId, {
        page,
        limit,
        seen: flag(c.req.query('seen')),
        read: flag(c.req.query('read')),
        ...(feeds ? { feedIds: feeds } : {}),
        ...(payload ? { payload } : {}),
      })
      return json(c, 200, {
        data: result.data.map((m) => feedItem(env, m)),
        totalCount: result.totalCount,
        hasMore: result.hasMore,
        pageSize: limit,
        page,
      })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscribers/:subscriberId/notifications/unseen',
    summary: "How many of the subscriber's in-app messages are unseen (or seen)",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    responses: { 200: { description: '{data: {count}}' } },
    handler(c, { env, params }) {
      const limit = env.generation.inbox.unseenLimit(c.req.query('limit'))
      const checks = [
        limit > 1000 ? 'limit must not be greater than 1000' : undefined,
        !(limit >= 1) ? 'limit must not be less than 1' : undefined,
      ].filter((m): m is string => !!m)
      if (checks.length)
        throw new CommandValidationError('GetFeedCountCommand', [
          { property: 'limit', messages: checks, value: limit },
        ])
      const subscriber = requireSubscriber(env, params.subscriberId, (id) =>
        inboxErrors.unseen(id, env._environmentId)
      )
      const seen = c.req.query('seen') === 'true'
      const all = env.messages.list({ channel: 'in_app', subscriberId: subscriber.subscriberId })
      let count = 0
      for (const m of all.slice(0, all.totalCount)) {
        if (m.seen === seen) count++
        if (count >= limit) break
      }
      return json(c, 200, { data: { count } })
    },
  }),
  defineRoute<{ subscriberId: string }, Obj, { messageId?: unknown; markAs: Mark }>({
    method: 'POST',
    path: '/v1/subscribers/:subscriberId/messages/mark-as',
    summary: 'Mark messages of the subscriber read, seen, unread or unseen',
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    body: (g) => g.inbox.markAsBody as z.ZodType<{ messageId?: unknown; markAs: Mark }>,
    responses: { 201: { description: 'The messages, in data' } },
    handler(c, { env, params, body }) {
      const rules = env.generation.inbox
      const ids = rules.markAsIds(body.messageId)
      const subscriber = requireSubscriber(env, params.subscriberId, inboxErrors.markAs)
      const at = env.now()
      const answered: Message[] = []
      for (const id of new Set(ids)) {
        const message = env.messages.get(id)
        if (!message) continue
        const own = message._subscriberId === subscriber._id
        if (own) {
          applyMark(message, body.markAs, at)
          emitMessageAction(env, body.markAs, message)
        }
        if (own || rules.markAsAnswersForeign) answered.push(message)
      }
      env.messages.touch()
      const data = answered.map((m) => rules.markAsDocument({ ...m, subscriber: undefined }))
      return json(c, 201, { data })
    },
  }),
  defineRoute<{ subscriberId: string }, Obj, { messageId?: unknown; mark?: Obj }>({
    method: 'POST',
    path: '/v1/subscribers/:subscriberId/messages/markAs',
    summary:
      "The older mark route `@novu/node`'s markMessageAs calls: `{messageId, mark: {seen?, read?}}`",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    body: lazySchema(
      () =>
        z.object({
          messageId: z.unknown().optional(),
          mark: z.unknown().optional(),
        }) as z.ZodType<{
          messageId?: unknown
          mark?: Obj
        }>
    ),
    responses: { 201: { description: 'The messages, in data' } },
    handler(c, { env, params, body }) {
      const rules = env.generation.inbox
      const ids = splitMessageIds(body.messageId)
      const subscriber = requireSubscriber(env, params.subscriberId, inboxErrors.markAs)
      const mark = body.mark !== null && typeof body.mark === 'object' ? body.mark : {}
      const at = env.now()
      const answered: Message[] = []
      for (const id of new Set(ids)) {
        const message = env.messages.get(id)
        if (!message || message._subscriberId !== subscriber._id) continue
        for (const [flag, on, off] of [
          ['seen', 'seen', 'unseen'],
          ['read', 'read', 'unread'],
        ] as const) {
          if (typeof mark[flag] !== 'boolean') continue
          const action = mark[flag] ? on : off
          applyMark(message, action, at)
          emitMessageAction(env, action, message)
        }
        answered.push(message)
      }
      env.messages.touch()
      const data = answered.map((m) => rules.markAsDocument({ ...m, subscriber: undefined }))
      return json(c, 201, { data })
    },
  }),
  defineRoute<{ subscriberId: string }, Obj, Obj>({
    method: 'POST',
    path: '/v1/subscribers/:subscriberId/messages/mark-all',
    summary: "Mark all the subscriber's in-app messages read, seen, unread or unseen",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    body: lazySchema(() => z.record(z.string(), z.unknown())),
    responses: { 201: { description: 'How many changed, in data' } },
    handler(c, { env, params, body }) {
      if (body.markAs === undefined || body.markAs === null)
        throw new CommandValidationError('MarkAllMessagesAsCommand', [
          {
            property: 'markAs',
            messages: ['markAs should not be null or undefined'],
            value: body.markAs,
          },
        ])
      const subscriber = requireSubscriber(env, params.subscriberId, (id) =>
        inboxErrors.markAll(id, env._environmentId)
      )
      const feeds =
        body.feedIdentifier === undefined
          ? undefined
          : ([] as unknown[]).concat(body.feedIdentifier).map(String)
      const all = env.messages.list({ channel: 'in_app', subscriberId: subscriber.subscriberId })
      const at = env.now()
      let changed = 0
      for (const m of all.slice(0, all.totalCount)) {
        if (feeds && !feeds.includes(String(m._feedId))) continue
        if (!applyMark(m, body.markAs as Mark, at, true)) continue
        emitMessageAction(env, body.markAs as Mark, m)
        changed++
      }
      if (changed) env.messages.touch()
      return json(c, 201, { data: changed })
    },
  }),
  defineRoute<
    { subscriberId: string; messageId: string; type: string },
    Obj,
    { status: string; payload?: unknown }
  >({
    method: 'POST',
    path: '/v1/subscribers/:subscriberId/messages/:messageId/actions/:type',
    summary: "Record the subscriber's answer to a message's button",
    tags,
    auth: 'apiKey',
    params: ActionParams,
    body: lazySchema(
      () =>
        z.object({
          status: z.unknown().superRefine((v, ctx) => {
            if (v === undefined || v === null)
              ctx.addIssue({ code: 'custom', message: 'status should not be null or undefined' })
            if (typeof v !== 'string')
              ctx.addIssue({ code: 'custom', message: 'status must be a string' })
          }),
          payload: z.unknown().optional(),
        }) as z.ZodType<{ status: string; payload?: unknown }>
    ),
    responses: { 201: { description: 'The message, in data' } },
    handler(c, { env, params, body }) {
      const { messageId, type } = params
      if (!isObjectId(messageId))
        throw new CommandValidationError('UpdateMessageActionsCommand', [
          { property: 'messageId', messages: ['messageId must be a mongodb id'], value: messageId },
        ])
      const message = env.messages.get(messageId)
      if (!message) throw httpError(404, `Message ${messageId} not found`)
      const subscriber = requireSubscriber(env, params.subscriberId, inboxErrors.action)
      const cta = (message.cta ?? {}) as Obj
      const action = (cta.action ?? {}) as Obj
      const result = { type, ...(body.payload !== undefined ? { payload: body.payload } : {}) }
      const unchanged =
        action.status === body.status && JSON.stringify(action.result) === JSON.stringify(result)
      if (message._subscriberId !== subscriber._id || unchanged)
        throw badRequest(
          `Message with the id: ${messageId} was not found for this environment. Make sure to address correct message before trying to modify it.`
        )
      message.cta = { ...cta, action: { ...action, status: body.status, result } }
      message.updatedAt = env.now()
      env.messages.touch()
      // The entity as upstream re-reads it: nothing populated.
      const { subscriber: _subscriber, ...entity } = message
      return json(c, 201, { data: { ...entity, id: message._id } })
    },
  }),
]
