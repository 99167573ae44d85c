import type { Context, MiddlewareHandler } from 'hono'
import { getQueryParams } from 'hono/utils/url'
import type { AppEnv } from '../app-env.js'
import { isSecretParam, redactHeader, redactKey } from '../http/redact.js'
import type { MockState } from '../state.js'
import { generationOf } from '../http/render-error.js'
import { closestRoutes, routeExists } from './closest-routes.js'
import type { JournalEntry } from './journal.js'
import { idsInJson, RESPONSE_HEAD_BYTES } from './response-ids.js'

export const MAX_JOURNAL_BODY = 2048
const MAX_HEADER_VALUE = 512
const MAX_HEADERS = 50

function recordHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  let count = 0
  headers.forEach((value, name) => {
    if (count++ >= MAX_HEADERS) return
    const shown = redactHeader(name, value)
    out[name] = shown.length > MAX_HEADER_VALUE ? `${shown.slice(0, MAX_HEADER_VALUE)}…` : shown
  })
  return out
}

/** The Headers @hono/node-server would build from Node's raw pairs (HTTP/2 pseudo-headers left out). */
function headersFromRaw(raw: string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    if (!name.startsWith(':')) headers.append(name, raw[i + 1] as string)
  }
  return headers
}

/**
 * The request's headers as the journal will show them, or Node's raw pairs to build them from
 * on read: building a Headers object costs more than the rest of the entry. Node's parser
 * bounds the raw pairs (16 kB), so the entry stays bounded; any other request is copied now.
 */
function headerSource(c: Context<AppEnv>): string[] | Record<string, string> {
  const raw = c.env?.incoming?.rawHeaders
  return raw ?? recordHeaders(c.req.raw.headers)
}

function recordQuery(url: string, path: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, all] of Object.entries(getQueryParams(url) as Record<string, string[]>)) {
    const values = isSecretParam(name, path) ? all.map(redactKey) : all
    out[name] = values.length > 1 ? values.slice(0, 20) : (values[0] ?? '')
  }
  return out
}

/** The first bytes of the body, copied: a slice would keep the whole (up to 20 MB) body alive. */
function bodyHead(raw: string): string {
  return raw.length > MAX_JOURNAL_BODY ? raw.slice(0, MAX_JOURNAL_BODY).split('').join('') : raw
}

/**
 * The head of a 2xx JSON answer, to find ids in on read. A short answer is kept by reference (no
 * copy); a long one's head is copied out (through bytes: a slice would keep the whole answer
 * alive), so an entry holds at most RESPONSE_HEAD_BYTES characters of it.
 */
function responseHead(text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  if (text.length <= RESPONSE_HEAD_BYTES / 2) return text
  return Buffer.from(text.slice(0, RESPONSE_HEAD_BYTES), 'utf8').toString('utf8')
}

function apiKeyOf(c: Context): string | undefined {
  const header = c.req.header('authorization')
  return header?.startsWith('ApiKey ') ? header.slice(7) : undefined
}

function responseIdsOf(head: string | undefined): { responseIds?: Record<string, string> } {
  if (head === undefined) return {}
  const ids = idsInJson(head)
  return Object.keys(ids).length ? { responseIds: ids } : {}
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
    // What the entry needs is taken now; turning it into the entry waits for someone to read it.
    const at = Date.now()
    const { method, path, url } = c.req
    const headers = headerSource(c)
    const raw = c.get('rawBody')
    const body = raw === undefined ? undefined : bodyHead(raw)
    const truncated = raw !== undefined && raw.length > MAX_JOURNAL_BODY
    const key = apiKeyOf(c)
    const environmentId = c.get('env')?._environmentId
    const rule = c.get('rule')
    const fault = c.get('fault')
    const outcome = c.get('outcome')
    const head = c.res.status < 300 ? responseHead(c.get('responseText')) : undefined
    const delayMs = c.get('delayMs')
    const generation = generationOf(c, state)
    const matched =
      c.get('matched') === true || (rule !== undefined && routeExists(method, path, generation))
    const status = statusOf(c)
    const durationMs = Math.round((performance.now() - started) * 100) / 100
    state.journal.record(
      (): Omit<JournalEntry, 'id'> => ({
        at: new Date(at).toISOString(),
        method,
        path,
        query: recordQuery(url, path),
        headers: Array.isArray(headers) ? recordHeaders(headersFromRaw(headers)) : headers,
        ...(body !== undefined ? { body } : {}),
        ...(truncated ? { bodyTruncated: true } : {}),
        ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
        ...(environmentId !== undefined ? { environmentId } : {}),
        status,
        durationMs,
        ...(rule ? { rule } : {}),
        ...(fault ? { fault } : {}),
        ...(outcome ? { outcome } : {}),
        ...(delayMs !== undefined ? { delayMs } : {}),
        matched,
        ...(matched ? {} : { closestRoutes: closestRoutes(method, path, generation) }),
        ...responseIdsOf(head),
      }),
      key?.slice(0, 256)
    )
  }
}
