import { z } from 'zod'
import { CommandValidationError, InternalError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { Environment } from '../../tenancy/environment.js'
import type { FeedCommand, FeedQuery } from './notifications.generations.js'
import type { Notification } from './notifications.store.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Notifications']

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Upstream's searchSubscribers: any of the emails, any of the subscriberIds, or the search text. */
function matchingSubscribers(env: Environment, command: FeedCommand): string[] {
  const emails = new Set(command.emails)
  const ids = new Set(command.subscriberIds)
  const search = command.search ? new RegExp(escape(command.search), 'i') : undefined
  return env.subscribers
    .all()
    .filter(
      (s) =>
        (typeof s.email === 'string' && emails.has(s.email)) ||
        ids.has(s.subscriberId) ||
        (search !== undefined &&
          ((typeof s.email === 'string' && search.test(s.email)) ||
            s.subscriberId === command.search))
    )
    .map((s) => s._id)
}

function laterFilters(command: FeedCommand) {
  const { topicKey, severity, after, before } = command
  if (!topicKey && !severity && !after && !before) return undefined
  return (n: Notification) =>
    (!topicKey ||
      (Array.isArray(n.topics) &&
        (n.topics as { topicKey?: string }[]).some((t) => t.topicKey === topicKey))) &&
    (!severity || severity.includes((n.severity as string | undefined) ?? 'none')) &&
    (!after || n.createdAt >= after) &&
    (!before || n.createdAt <= before)
}

const ListSchema = lazySchema(() =>
  z.object({
    page: z.number(),
    hasMore: z.boolean(),
    pageSize: z.number(),
    data: z.array(z.looseObject({ _id: z.string(), transactionId: z.string() })),
  })
)

const NotificationIdParams = lazySchema(() => z.object({ notificationId: z.string() }))

export const notificationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/notifications',
    summary: 'The activity feed: one notification per trigger and subscriber, newest first',
    tags,
    auth: 'apiKey',
    query: (g) => g.notifications.listQuery,
    responses: { 200: { description: 'A page (not wrapped in data)', schema: ListSchema } },
    handler(c, { env, query }) {
      const rules = env.generation.notifications
      const command = rules.command(query as FeedQuery)
      const { page, limit } = command
      let subscriberIds: string[] | undefined
      if (command.search || command.emails.length || command.subscriberIds.length) {
        subscriberIds = matchingSubscribers(env, command)
        if (!subscriberIds.length)
          return json(c, 200, { page: 0, hasMore: false, pageSize: limit, data: [] })
      }
      // MongoDB refuses a negative skip.
      if (page < 0) throw new InternalError('MongoDB refuses a negative skip')
      let found = env.notifications.feed({
        channels: command.channels,
        templates: command.templates,
        subscriberIds,
        transactionIds: command.transactionIds,
      })
      const more = laterFilters(command)
      if (more) found = found.filter(more)
      const data = found.slice(page * limit, page * limit + limit).map((n) => rules.item(env, n))
      return json(c, 200, { page, hasMore: data.length === limit, pageSize: limit, data })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/notifications/:notificationId',
    summary: 'One notification with its subscriber, workflow and jobs',
    tags,
    auth: 'apiKey',
    params: NotificationIdParams,
    responses: {
      200: { description: 'The notification, in data' },
      404: { description: '2026-08: no such notification' },
    },
    handler(c, { env, params }) {
      const rules = env.generation.notifications
      const { notificationId } = params
      if (!/^[0-9a-fA-F]{24}$/.test(notificationId))
        throw new CommandValidationError('GetActivityCommand', [
          {
            property: 'notificationId',
            messages: ['notificationId must be a mongodb id'],
            value: notificationId,
          },
        ])
      const notification = env.notifications.get(notificationId.toLowerCase())
      if (!notification) {
        const missing = rules.missing(notificationId)
        if ('data' in missing) return json(c, 200, missing)
        throw missing
      }
      return json(c, 200, { data: rules.item(env, notification) })
    },
  }),
]
