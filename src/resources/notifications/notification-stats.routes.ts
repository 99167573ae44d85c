import { z } from 'zod'
import { CommandValidationError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { Environment } from '../../tenancy/environment.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * GET /v1/notifications/stats and /graph/stats: counts of the environment's notifications (one
 * per trigger and subscriber, not messages). Hidden and deprecated since 2025, still served.
 * They must be matched before /v1/notifications/:notificationId, as upstream declares them.
 */

const tags = ['Notifications']
const DAY = 24 * 60 * 60 * 1000

/** date-fns `subMonths`: the same day a month earlier, or that month's last day. */
function monthBefore(now: Date): number {
  const target = new Date(now.getTime())
  const day = target.getUTCDate()
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() - 1)
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, last))
  return target.getTime()
}

function stats(env: Environment) {
  const now = new Date(env.now())
  const month = monthBefore(now)
  const week = now.getTime() - 7 * DAY
  let monthlySent = 0
  let weeklySent = 0
  for (const n of env.notifications.all()) {
    const at = Date.parse(n.createdAt)
    if (at >= month) monthlySent++
    if (at >= week) weeklySent++
  }
  return { weeklySent, monthlySent }
}

/** Notification × channel pairs per UTC day, newest day first (upstream leaves the order open). */
function graph(env: Environment, days: number) {
  const since = Date.parse(env.now()) - days * DAY
  const byDay = new Map<string, { count: number; templates: Set<string>; channels: Set<string> }>()
  for (const n of env.notifications.all()) {
    if (Date.parse(n.createdAt) < since || !n.channels.length) continue
    const day = n.createdAt.slice(0, 10)
    let entry = byDay.get(day)
    if (!entry) byDay.set(day, (entry = { count: 0, templates: new Set(), channels: new Set() }))
    entry.count += n.channels.length
    entry.templates.add(n._templateId)
    for (const channel of n.channels) entry.channels.add(channel)
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .map(([day, e]) => ({
      _id: day,
      count: e.count,
      templates: [...e.templates],
      channels: [...e.channels],
    }))
}

export const notificationStatsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/notifications/stats',
    summary: 'Notifications sent in the last week and month',
    tags,
    auth: 'apiKey',
    responses: { 200: { description: '{weeklySent, monthlySent}, in data' } },
    handler(c, { env }) {
      return json(c, 200, { data: stats(env) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/notifications/graph/stats',
    summary: 'Notifications per day and channel over the last days (32 by default)',
    tags,
    auth: 'apiKey',
    query: lazySchema(() =>
      z.object({ days: z.unknown().optional().meta({ type: 'integer', default: 32 }) })
    ),
    responses: {
      200: { description: 'One item a day: {_id, count, templates, channels}, in data' },
    },
    handler(c, { env, query }) {
      const sent = query.days
      // The controller's `days ? Number(days) : 32`: a repeated name is an array, NaN unless one.
      const days = sent ? Number(sent) : 32
      if (Number.isNaN(days))
        throw new CommandValidationError('GetActivityGraphStatsCommand', [
          {
            property: 'days',
            messages: ['days must be a number conforming to the specified constraints'],
            value: null,
          },
        ])
      return json(c, 200, { data: graph(env, days) })
    },
  }),
]
