import { z } from 'zod'
import { emitMessageAction } from '../../webhooks/message-events.js'
import { badRequest, httpError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { isInt, max, min } from '../../http/rules.js'
import { field } from '../../http/validate.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Message } from '../messages/messages.store.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import { requireSubscriber } from '../preferences/preferences.service.js'
import { inboxFields, inboxNotification } from './inbox-v2.mapper.js'
import { applyMark } from './inbox.store.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * The v2 inbox of one subscriber (2025 on, `@novu/api`'s `subscribers.notifications.*`): its in-app
 * messages as inbox notifications, marked, archived, snoozed, actioned and deleted.
 */

const tags = ['Subscriber inbox']
const v2 = { existsIn: (g: { inbox: { v2: boolean } }) => g.inbox.v2 }
const SubscriberParams = lazySchema(() => z.object({ subscriberId: z.string() }))
const NotificationParams = lazySchema(() =>
  z.object({ subscriberId: z.string(), notificationId: z.string() })
)
const ActionParams = lazySchema(() =>
  NotificationParams.unwrap().extend({ actionType: z.string() })
)
const MAX_COUNT_FILTERS = 30

function subscriberOf(env: Environment, subscriberId: string): Subscriber {
  return requireSubscriber(env, subscriberId, (id) =>
    badRequest(`Subscriber with id: ${id} is not found.`)
  )
}

/** The subscriber's in-app messages, newest first. */
function inAppOf(env: Environment, subscriber: Subscriber): Message[] {
  const all = env.messages.list({ channel: 'in_app', subscriberId: subscriber.subscriberId })
  return all.slice(0, all.totalCount)
}

const flag = (value: unknown) =>
  value === undefined ? undefined : value === 'true' || value === true

interface Filter {
  read?: boolean
  seen?: boolean
  archived?: boolean
  snoozed?: boolean
  tags?: string[]
}

const matches = (m: Message, f: Filter) =>
  (f.read === undefined || m.read === f.read) &&
  (f.seen === undefined || m.seen === f.seen) &&
  (f.archived === undefined || m.archived === f.archived) &&
  (f.snoozed === undefined || !!inboxFields(m).snoozedUntil === f.snoozed) &&
  (!f.tags?.length || f.tags.some((t) => (m.tags ?? []).includes(t)))

const tagList = (value: unknown) =>
  value === undefined ? undefined : ([] as unknown[]).concat(value).map(String)

function notificationOf(env: Environment, subscriber: Subscriber, id: string): Message {
  const message = env.messages.get(id)
  if (!message || message._subscriberId !== subscriber._id || message.channel !== 'in_app')
    throw httpError(404, `Notification with id: ${id} is not found.`)
  return message
}

/** A change to one notification, answered as the inbox shows it. */
function changeOne(
  change: (m: Message & Obj, at: string, body: Obj) => void,
  summary: string,
  path: string
) {
  return defineRoute<{ subscriberId: string; notificationId: string }, Obj, Obj>({
    method: 'PATCH',
    path: `/v2/subscribers/:subscriberId/notifications/:notificationId/${path}`,
    summary,
    tags,
    auth: 'apiKey',
    ...v2,
    params: NotificationParams,
    body: lazySchema(() => z.record(z.string(), z.unknown()).optional() as z.ZodType<Obj>),
    responses: { 200: { description: 'The notification, in data' } },
    handler(c, { env, params, body }) {
      const subscriber = subscriberOf(env, params.subscriberId)
      const message = notificationOf(env, subscriber, params.notificationId)
      const at = env.now()
      change(message as Message & Obj, at, body ?? {})
      message.updatedAt = at
      emitMessageAction(env, path, message)
      env.messages.touch()
      return json(c, 200, { data: inboxNotification(env, message) })
    },
  })
}

/** A change to many of the subscriber's notifications (by tags), answered 204. */
function changeMany(
  change: (env: Environment, m: Message & Obj, at: string) => void,
  summary: string,
  path: string
) {
  return defineRoute<{ subscriberId: string }, Obj, Obj>({
    method: 'POST',
    path: `/v2/subscribers/:subscriberId/notifications/${path}`,
    summary,
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    body: lazySchema(() => z.record(z.string(), z.unknown()).optional() as z.ZodType<Obj>),
    responses: { 204: { description: 'Done' } },
    handler(c, { env, params, body }) {
      const subscriber = subscriberOf(env, params.subscriberId)
      const sent = body ?? {}
      const ids = Array.isArray(sent.notificationIds) ? sent.notificationIds.map(String) : undefined
      const wanted = tagList(sent.tags)
      const at = env.now()
      for (const m of inAppOf(env, subscriber))
        if ((!ids || ids.includes(m._id)) && matches(m, wanted ? { tags: wanted } : {})) {
          change(env, m as Message & Obj, at)
          emitMessageAction(env, path, m)
        }
      env.messages.touch()
      return c.body(null, 204)
    },
  })
}

const seeOnce = (m: Message & Obj, at: string) => {
  if (!m.seen) applyMark(m, 'seen', at)
  inboxFields(m).firstSeenDate ??= at
}
const archive = (m: Message & Obj, at: string) => {
  m.archived = true
  inboxFields(m).archivedAt = at
}
const read = (m: Message & Obj, at: string) => {
  applyMark(m, 'read', at)
  inboxFields(m).firstSeenDate ??= at
}
const hardDelete = (env: Environment, m: Message) => env.messages.remove(m._id, env.now(), true)

function recordAction(m: Message & Obj, type: string, status: 'done' | 'pending') {
  const cta = (m.cta ?? {}) as Obj
  const act = (cta.action ?? {}) as Obj
  m.cta = {
    ...cta,
    action: { ...act, status, result: { type: status === 'done' ? type : null, payload: {} } },
  }
}

export const inboxV2Routes = [
  defineRoute<{ subscriberId: string }, Obj, unknown>({
    method: 'GET',
    path: '/v2/subscribers/:subscriberId/notifications',
    summary: "The subscriber's inbox notifications, newest first",
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    query: lazySchema(
      () =>
        z.object({
          limit: field<number>(
            'limit',
            [max(100), min(1), isInt],
            { type: 'integer', maximum: 100, default: 10 },
            { optional: true }
          ),
          offset: field<number>('offset', [min(0), isInt], { type: 'integer' }, { optional: true }),
        }) as z.ZodType<Obj>
    ),
    numericQuery: ['limit', 'offset'],
    responses: { 200: { description: '{data, hasMore, filter}, not wrapped' } },
    handler(c, { env, params, query }) {
      const subscriber = subscriberOf(env, params.subscriberId)
      const filter: Filter = {}
      for (const name of ['read', 'seen', 'archived', 'snoozed'] as const) {
        const value = flag(c.req.query(name))
        if (value !== undefined) filter[name] = value
      }
      const wanted = c.req.queries('tags') ?? c.req.queries('tags[]')
      if (wanted) filter.tags = wanted
      const limit = (query.limit as number | undefined) ?? 10
      let list = inAppOf(env, subscriber).filter((m) => matches(m, filter))
      const after = c.req.query('after')
      if (after) list = list.slice(list.findIndex((m) => m._id === after) + 1)
      else list = list.slice((query.offset as number | undefined) ?? 0)
      const data = list.slice(0, limit).map((m) => inboxNotification(env, m))
      return json(c, 200, { data, hasMore: list.length > limit, filter })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/subscribers/:subscriberId/notifications/count',
    summary: "How many of the subscriber's inbox notifications match each filter",
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    responses: { 200: { description: '{data: [{count, filter}]}' } },
    handler(c, { env, params }) {
      let filters: unknown
      try {
        filters = JSON.parse(c.req.query('filters') ?? '[{}]')
      } catch {
        filters = undefined
      }
      if (!Array.isArray(filters) || filters.some((f) => f === null || typeof f !== 'object'))
        throw httpError(400, 'Filters must be a JSON array of objects')
      if (filters.length > MAX_COUNT_FILTERS)
        throw httpError(400, `Maximum number of filters is ${MAX_COUNT_FILTERS}`)
      const subscriber = subscriberOf(env, params.subscriberId)
      const messages = inAppOf(env, subscriber)
      const data = (filters as Obj[]).map((sent) => {
        const filter: Filter = {}
        for (const name of ['read', 'seen', 'archived', 'snoozed'] as const)
          if (typeof sent[name] === 'boolean') filter[name] = sent[name] as boolean
        const wanted = tagList(sent.tags)
        if (wanted) filter.tags = wanted
        return { count: messages.filter((m) => matches(m, filter)).length, filter: sent }
      })
      return json(c, 200, { data })
    },
  }),
  changeOne((m, at) => read(m, at), 'Mark one notification read', 'read'),
  changeOne((m, at) => applyMark(m, 'unread', at), 'Mark one notification unread', 'unread'),
  changeOne((m, at) => archive(m, at), 'Archive one notification', 'archive'),
  changeOne(
    (m) => {
      m.archived = false
      inboxFields(m).archivedAt = null
    },
    'Unarchive one notification',
    'unarchive'
  ),
  changeOne(
    (m, _at, body) => {
      const until = typeof body.snoozeUntil === 'string' ? body.snoozeUntil : undefined
      if (!until || Number.isNaN(Date.parse(until)))
        throw httpError(422, 'snoozeUntil must be a valid ISO 8601 date string')
      inboxFields(m).snoozedUntil = new Date(until).toISOString()
    },
    'Snooze one notification until a time',
    'snooze'
  ),
  changeOne(
    (m) => void (inboxFields(m).snoozedUntil = null),
    'Unsnooze one notification',
    'unsnooze'
  ),
  ...(['complete', 'revert'] as const).map((verb) =>
    defineRoute<{ subscriberId: string; notificationId: string; actionType: string }, Obj, unknown>(
      {
        method: 'PATCH',
        path: `/v2/subscribers/:subscriberId/notifications/:notificationId/actions/:actionType/${verb}`,
        summary: `${verb === 'complete' ? 'Complete' : 'Revert'} a notification's primary or secondary action`,
        tags,
        auth: 'apiKey',
        ...v2,
        params: ActionParams,
        responses: { 200: { description: 'The notification, in data' } },
        handler(c, { env, params }) {
          const subscriber = subscriberOf(env, params.subscriberId)
          const message = notificationOf(env, subscriber, params.notificationId)
          recordAction(
            message as Message & Obj,
            params.actionType,
            verb === 'complete' ? 'done' : 'pending'
          )
          message.updatedAt = env.now()
          env.messages.touch()
          return json(c, 200, { data: inboxNotification(env, message) })
        },
      }
    )
  ),
  defineRoute({
    method: 'DELETE',
    path: '/v2/subscribers/:subscriberId/notifications/:notificationId',
    summary: 'Delete one notification',
    tags,
    auth: 'apiKey',
    ...v2,
    params: NotificationParams,
    responses: { 204: { description: 'Deleted' } },
    handler(c, { env, params }) {
      const subscriber = subscriberOf(env, params.subscriberId)
      const message = notificationOf(env, subscriber, params.notificationId)
      hardDelete(env, message)
      emitMessageAction(env, 'delete', message)
      return c.body(null, 204)
    },
  }),
  changeMany((_env, m, at) => seeOnce(m, at), 'Mark notifications seen', 'seen'),
  changeMany((_env, m, at) => read(m, at), 'Mark every notification read', 'read'),
  changeMany((_env, m, at) => archive(m, at), 'Archive every notification', 'archive'),
  changeMany(
    (_env, m, at) => {
      if (m.read) archive(m, at)
    },
    'Archive every read notification',
    'read-archive'
  ),
  changeMany((env, m) => hardDelete(env, m), 'Delete every notification', 'delete'),
]
