import { z } from 'zod'
import { badRequest, httpError } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import { redactKey } from '../http/redact.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments' | 'events'>
import type { Environment } from '../tenancy/environment.js'
import type { Message } from '../resources/messages/messages.store.js'
import { CHANNELS_WITH_TOOL } from '../channels.js'
import { renderMessage } from '../resources/messages/messages.routes.js'
import { parseDuration } from './clock.routes.js'
import { renderedOutput } from './rendered-message.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']

/** A test waits at most this long; a longer wait is a test that should fail sooner. */
const MAX_WAIT_MS = 30_000
/** Requests held at once: past it, a wait is refused rather than another timer and listener kept. */
const MAX_WAITERS = 256
const DEFAULT_LIMIT = 100
const MAX_LIMIT = 1000
/** How often a held request runs the delays that came due on a running clock. */
const SETTLE_EVERY_MS = 250

const MessageFilterSchema = lazySchema(() =>
  z.object({
    apiKey: z.string().min(1).max(256).optional().meta({ description: "only this key's messages" }),
    environmentId: z
      .string()
      .max(64)
      .optional()
      .meta({ description: "only this environment's messages (its _environmentId)" }),
    subscriberId: z.string().max(256).optional(),
    workflow: z.string().max(256).optional().meta({ description: 'the trigger identifier' }),
    transactionId: z.string().max(256).optional(),
    channel: z.enum(CHANNELS_WITH_TOOL).optional(),
    since: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'ISO time; only messages created at or after it' }),
    q: z
      .string()
      .max(256)
      .optional()
      .meta({ description: 'text the subject or body contains (case-insensitive)' }),
    wait: z.string().max(32).optional().meta({
      description:
        'ms or a duration such as "2s" (at most 30 s): hold the answer until a message matches',
    }),
    limit: z
      .string()
      .regex(/^\d+$/, 'a whole number')
      .optional()
      .meta({
        description: `messages per page, newest first (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`,
      }),
    page: z.string().regex(/^\d+$/, 'a whole number').optional().meta({ description: 'from 0' }),
  })
)

type Filter = z.infer<typeof MessageFilterSchema>

interface Found {
  apiKey: string
  env: Environment
  message: Message
}

/** Whether the message matches what the store's indexes did not already narrow. */
function matchesRest(message: Message, filter: Filter, since: number | undefined): boolean {
  if (filter.workflow !== undefined && message.templateIdentifier !== filter.workflow) return false
  if (since !== undefined && Date.parse(message.createdAt) < since) return false
  if (filter.q) {
    const needle = filter.q.toLowerCase()
    const m = message as Message & { title?: unknown }
    const texts = [
      m.subject,
      m.title,
      typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    ]
    if (!texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle))) return false
  }
  return true
}

function matches(message: Message, filter: Filter, since: number | undefined): boolean {
  if (message.deleted) return false
  if (filter.channel !== undefined && message.channel !== filter.channel) return false
  if (filter.subscriberId !== undefined && message.subscriber?.subscriberId !== filter.subscriberId)
    return false
  if (filter.transactionId !== undefined && message.transactionId !== filter.transactionId)
    return false
  return matchesRest(message, filter, since)
}

/** The environments a filter reads: one key's (if it has one yet), or every live one. */
function environmentsOf(
  state: State,
  { apiKey, environmentId }: Pick<Filter, 'apiKey' | 'environmentId'>
): [string, Environment][] {
  const keys = apiKey === undefined ? state.environments.keys() : [apiKey]
  return keys.flatMap((key) => {
    const env = state.environments.peek(key)
    if (!env || (environmentId !== undefined && env._environmentId !== environmentId)) return []
    return [[key, env] as [string, Environment]]
  })
}

/** Every matching message of the environments, newest first. */
function search(state: State, filter: Filter): Found[] {
  const since = filter.since === undefined ? undefined : Date.parse(filter.since)
  const found: Found[] = []
  for (const [apiKey, env] of environmentsOf(state, filter)) {
    env.settle()
    const page = env.messages.list({
      channel: filter.channel,
      subscriberId: filter.subscriberId || undefined,
      transactionIds: filter.transactionId === undefined ? undefined : [filter.transactionId],
    })
    for (const message of page.slice(0, page.totalCount))
      if (matchesRest(message, filter, since)) found.push({ apiKey, env, message })
  }
  // Each environment's list is newest first already; across keys, by time (stable).
  if (filter.apiKey === undefined && filter.environmentId === undefined)
    found.sort((a, b) =>
      a.message.createdAt < b.message.createdAt
        ? 1
        : a.message.createdAt > b.message.createdAt
          ? -1
          : 0
    )
  return found
}

/** One item: the message as `GET /v1/messages` shows it, its key (redacted) and its rendered output. */
export const messageItem = ({ apiKey, env, message }: Found) => ({
  ...renderMessage(message, env.generation.messages),
  apiKey: redactKey(apiKey),
  rendered: renderedOutput(message),
})

function answer(state: State, filter: Filter) {
  const limit = Math.max(1, Math.min(Number(filter.limit ?? DEFAULT_LIMIT), MAX_LIMIT))
  const page = Number(filter.page ?? 0)
  const found = search(state, filter)
  const start = page * limit
  const data = found.slice(start, start + limit).map(messageItem)
  return {
    data,
    page,
    pageSize: limit,
    totalCount: found.length,
    hasMore: start + data.length < found.length,
  }
}

function waitOf(value: string | undefined): number {
  if (value === undefined) return 0
  const ms = parseDuration(value)
  if (ms === undefined || ms < 0)
    throw badRequest(`wait: "${value}" is not a duration (ms, or like "500ms", "2s")`)
  if (ms > MAX_WAIT_MS) throw badRequest(`wait: at most ${MAX_WAIT_MS / 1000}s (${MAX_WAIT_MS} ms)`)
  return ms
}

/**
 * The assertion API: the messages the mock "sent", with what each rendered to, and a wait that
 * holds the answer until one matches (a listener on the control plane's events, a timer, no
 * polling of the stores).
 */
export function outboxRoutes(state: State): AnyRoute[] {
  let waiters = 0
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/messages',
      summary: 'The messages triggers created, rendered, newest first; can wait for one to match',
      tags,
      auth: 'admin',
      query: MessageFilterSchema,
      responses: {
        200: {
          description: 'A page of messages, each with its rendered output',
          schema: lazySchema(() =>
            z.looseObject({ data: z.array(z.looseObject({ rendered: z.looseObject({}) })) })
          ),
        },
        400: { description: 'A filter or the wait is not valid' },
        429: { description: `More than ${MAX_WAITERS} requests are waiting` },
      },
      handler(c, { query }) {
        const ms = waitOf(query.wait)
        const now = answer(state, query)
        if (ms === 0 || now.totalCount > 0) return json(c, 200, now)
        if (waiters >= MAX_WAITERS)
          throw httpError(429, `At most ${MAX_WAITERS} requests may wait for messages at once`)
        waiters++
        const since = query.since === undefined ? undefined : Date.parse(query.since)
        return new Promise<Response>((resolve) => {
          let done = false
          const finish = () => {
            if (done) return
            done = true
            waiters--
            unsubscribe()
            clearTimeout(timer)
            clearInterval(settler)
            c.req.raw.signal.removeEventListener('abort', finish)
            resolve(json(c, 200, answer(state, query)))
          }
          const unsubscribe = state.events.subscribe((event) => {
            if (event.type === 'closing') return finish()
            if (event.type !== 'message') return
            if (query.apiKey !== undefined && event.apiKey !== query.apiKey) return
            const env = state.environments.peek(event.apiKey)
            if (query.environmentId !== undefined && env?._environmentId !== query.environmentId)
              return
            const message = env?.messages.find(event.messageId)
            if (message && matches(message, query, since)) queueMicrotask(finish)
          })
          const timer = setTimeout(finish, ms)
          // Delays that end on a running clock run when something reads the environment.
          const settler = setInterval(() => {
            for (const [, env] of environmentsOf(state, query)) env.settle()
          }, SETTLE_EVERY_MS)
          c.req.raw.signal.addEventListener('abort', finish)
        })
      },
    }),
  ]
}
