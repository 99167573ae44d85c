import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { redactKey } from '../log.js'
import type { MockState } from '../state.js'
import { closestRoutes, routeExists } from './closest-routes.js'

export const MAX_JOURNAL_BODY = 2048
const MAX_HEADER_VALUE = 512
const MAX_HEADERS = 50

function redactAuthorization(value: string): string {
  const space = value.indexOf(' ')
  if (space === -1) return redactKey(value)
  return `${value.slice(0, space)} ${redactKey(value.slice(space + 1))}`
}

function recordHeaders(c: Context): Record<string, string> {
  const out: Record<string, string> = {}
  let count = 0
  c.req.raw.headers.forEach((value, name) => {
    if (count++ >= MAX_HEADERS) return
    const shown = name === 'authorization' ? redactAuthorization(value) : value
    out[name] = shown.length > MAX_HEADER_VALUE ? `${shown.slice(0, MAX_HEADER_VALUE)}…` : shown
  })
  return out
}

function recordQuery(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, values] of Object.entries(c.req.queries()))
    out[name] = values.length > 1 ? values.slice(0, 20) : (values[0] ?? '')
  return out
}

function apiKeyOf(c: Context): string | undefined {
  const header = c.req.header('authorization')
  return header?.startsWith('ApiKey ') ? header.slice(7) : undefined
}

// These faults never send a response; malformed and slow bodies do, with the route's status.
const CONNECTION_FAULTS = new Set(['reset', 'empty', 'hang'])
const statusOf = (c: Context<AppEnv>) =>
  CONNECTION_FAULTS.has(c.get('fault') ?? '') ? 0 : c.res.status

function logRequest(state: MockState, c: Context<AppEnv>, started: number) {
  const key = apiKeyOf(c)
  state.logger.log('debug', 'request', {
    method: c.req.method,
    path: c.req.path,
    status: statusOf(c),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
    ...(c.get('rule') ? { rule: c.get('rule') } : {}),
  })
}

/**
 * Records every request, faulted and unmatched ones included, once its answer is known.
 * Admin requests are not recorded, so reading the journal does not change it.
 */
export function journal(state: MockState): MiddlewareHandler<AppEnv> {
  return async function journal(c, next) {
    const started = performance.now()
    await next()
    if (state.logger.enabled('debug')) logRequest(state, c, started)
    if (state.journal.capacity === 0 || c.req.path.startsWith('/__admin')) return
    const raw = c.get('rawBody')
    const key = apiKeyOf(c)
    const matched =
      c.get('matched') === true ||
      (c.get('rule') !== undefined && routeExists(c.req.method, c.req.path))
    state.journal.record(
      {
        at: new Date().toISOString(),
        method: c.req.method,
        path: c.req.path,
        query: recordQuery(c),
        headers: recordHeaders(c),
        ...(raw !== undefined ? { body: raw.slice(0, MAX_JOURNAL_BODY) } : {}),
        ...(raw !== undefined && raw.length > MAX_JOURNAL_BODY ? { bodyTruncated: true } : {}),
        ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
        ...(c.get('env') ? { environmentId: c.get('env')?._environmentId } : {}),
        status: statusOf(c),
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(c.get('rule') ? { rule: c.get('rule') } : {}),
        ...(c.get('fault') ? { fault: c.get('fault') } : {}),
        ...(c.get('delayMs') !== undefined ? { delayMs: c.get('delayMs') } : {}),
        matched,
        ...(matched ? {} : { closestRoutes: closestRoutes(c.req.method, c.req.path) }),
      },
      key?.slice(0, 256)
    )
  }
}
