import { z } from 'zod'
import { badRequest } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments' | 'webhooks'>
import type { Environment } from '../tenancy/environment.js'
import { isMovable } from '../tenancy/clock.js'
import { environmentFor } from './state.routes.js'
import { OptionalApiKeyQuerySchema } from './admin.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}

/** `90000`, `"90s"`, `"15m"`, `"1h30m"`, `"2d"`: a duration in ms, or undefined. */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text)
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)]
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) return undefined
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2] as string] ?? 0), 0)
}

/** Ten years: far past any delay or digest window, short of Date's range. */
const MAX_MOVE_MS = 10 * 365 * 86_400_000

export const ClockBodySchema = lazySchema(() =>
  z
    .strictObject({
      advance: z
        .union([z.number().min(0), z.string().min(1).max(64)])
        .optional()
        .meta({ description: 'ms, or a duration such as "90s", "15m", "1h30m", "2d"' }),
      to: z.iso
        .datetime({ offset: true })
        .optional()
        .meta({ description: 'an ISO time to move to (not before the current time)' }),
    })
    .refine((b) => (b.advance === undefined) !== (b.to === undefined), {
      message: 'give either "advance" or "to", not both',
    })
)

export const ClockViewSchema = lazySchema(() =>
  z.object({
    data: z.object({
      now: z.string(),
      fixed: z.boolean(),
      pending: z.number().meta({ description: 'delayed steps still waiting' }),
      ran: z.number().optional().meta({ description: 'delayed steps this move ran' }),
      webhookRetries: z
        .number()
        .optional()
        .meta({ description: 'webhook retries that became due with this move and went out' }),
    }),
  })
)

const pendingOf = (envs: Environment[]) =>
  envs.reduce((sum, env) => sum + env.notifications.pendingCount(), 0)

function view(now: Date, fixed: boolean, pending: number, ran?: number, webhookRetries?: number) {
  return {
    data: {
      now: now.toISOString(),
      fixed,
      pending,
      ...(ran !== undefined ? { ran } : {}),
      ...(webhookRetries !== undefined ? { webhookRetries } : {}),
    },
  }
}

/**
 * The environments' clocks: read them, or move them forward (one key's, or every key's) and run
 * the delays and digests whose wait ended. A scenario's fixed clock only moves this way.
 */
export function clockRoutes(state: State): AnyRoute[] {
  const live = () => state.environments.keys().flatMap((k) => state.environments.peek(k) ?? [])
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/clock',
      summary: "The time of one key's environment, or of the scenario's clock",
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      responses: {
        200: { description: 'The time and the steps still waiting', schema: ClockViewSchema },
      },
      handler(c, { query }) {
        if (query.apiKey !== undefined) {
          const env = environmentFor(state, query.apiKey)
          env.settle()
          return json(
            c,
            200,
            view(env.clock.now(), env.clock.fixed, env.notifications.pendingCount())
          )
        }
        const clock = state.environments.source.clock
        return json(c, 200, view(clock.now(), clock.fixed, pendingOf(live())))
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/clock',
      summary: "Move one key's clock (or every key's) forward and run what became due",
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      body: ClockBodySchema,
      responses: {
        200: {
          description: 'The new time, the steps run and those still waiting',
          schema: ClockViewSchema,
        },
        400: { description: 'Not a duration, or a time before the current one' },
      },
      handler(c, { query, body }) {
        const envs = query.apiKey !== undefined ? [environmentFor(state, query.apiKey)] : live()
        const source = state.environments.source.clock
        const current =
          query.apiKey !== undefined ? (envs[0] as Environment).clock.now() : source.now()
        let ms: number | undefined
        if (body.to !== undefined) {
          ms = Date.parse(body.to) - current.getTime()
          if (ms < 0)
            throw badRequest(
              `the clock only moves forward: ${body.to} is before its time, ${current.toISOString()}`
            )
        } else {
          ms = parseDuration(body.advance as number | string)
          if (ms === undefined || ms < 0)
            throw badRequest(
              `advance: "${String(body.advance)}" is not a duration (ms, or like "90s", "15m", "1h30m", "2d")`
            )
        }
        if (ms > MAX_MOVE_MS) throw badRequest('the clock moves at most ten years at a time')
        if (query.apiKey !== undefined) (envs[0] as Environment).clock.advance(ms)
        else if (isMovable(source)) source.advance(ms)
        const ran = envs.reduce((sum, env) => sum + env.settle(), 0)
        const { dispatcher } = state.webhooks
        const retries = envs.reduce((sum, env) => sum + dispatcher.fireDue(env.apiKey), 0)
        const pending = pendingOf(envs)
        const now = query.apiKey !== undefined ? (envs[0] as Environment).clock.now() : source.now()
        const fixed =
          query.apiKey !== undefined ? (envs[0] as Environment).clock.fixed : source.fixed
        // Counted once webhooks are in play: the answer stays as it was for everyone else.
        const shown = state.webhooks.endpoints.size() ? retries : undefined
        return json(c, 200, view(now, fixed, pending, ran, shown))
      },
    }),
  ]
}
