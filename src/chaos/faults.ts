import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { STATUS_CODES } from 'node:http'
import type { AppEnv } from '../app-env.js'
import { objectError, REASON, ThrottledError } from '../errors.js'
import { JSON_CONTENT_TYPE, originalUrl } from '../http/respond.js'
import type { MockState } from '../state.js'
import type { NetworkFault, StatusFault } from './rules.schemas.js'

/** What the `malformed` fault sends: the start of a Novu envelope, cut short. */
export const MALFORMED_BODY = '{"data":[{"_id":"'
const SLOW_BODY_DEFAULTS = { chunkBytes: 16, intervalMs: 50 }

// Upstream's limits at the "unlimited" service level, per second, over a 5 s window, with a 10%
// burst allowance (novu-api-facts §7.3). Topics count as "configuration", the rest as "global".
const WINDOW_SECONDS = 5
const PER_SECOND = { configuration: 2000, global: 3000 }

const reason = (status: number) => REASON[status] ?? STATUS_CODES[status] ?? 'Error'

function defaultBody(c: Context<AppEnv>, state: MockState, status: number, path: string) {
  const timestamp = state.now().toISOString()
  const { errors } = c.get('generation')
  if (status === 500) return errors.internal(path, timestamp, state.newErrorId())
  if (status === 429) return errors.render(new ThrottledError(), path, timestamp).body
  // As Nest's bare `new XxxException()`: the reason phrase as message, no `error` key.
  const bare = objectError(status, { message: reason(status), statusCode: status })
  return errors.render(bare, path, timestamp).body
}

function rateLimitHeaders(path: string, resetSeconds: number): Record<string, string> {
  const category = path.startsWith('/v1/topics') ? 'configuration' : 'global'
  const limit = PER_SECOND[category] * WINDOW_SECONDS
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': String(resetSeconds),
    'RateLimit-Policy': `${limit};w=${WINDOW_SECONDS};burst=${limit + limit / 10};comment="token bucket";category="${category}";cost="single";serviceLevel="unlimited"`,
  }
}

/** 429 and 503 tell clients when to retry, as upstream does; the rule's own headers win. */
function defaultHeaders(
  status: number,
  path: string,
  given: Record<string, string>
): Record<string, string> {
  const find = (name: string) => Object.entries(given).find(([k]) => k.toLowerCase() === name)?.[1]
  const retryAfter = find('retry-after') ?? '1'
  const out: Record<string, string> = {}
  if (status === 429 || status === 503) out['Retry-After'] = retryAfter
  if (status === 429)
    Object.assign(out, rateLimitHeaders(path, /^\d+$/.test(retryAfter) ? Number(retryAfter) : 1))
  return out
}

/** Answers with the fault's status, headers and body (by default, the real service's error body). */
export function statusFault(c: Context<AppEnv>, state: MockState, fault: StatusFault): Response {
  const path = originalUrl(c)
  const given = fault.headers ?? {}
  c.header('Content-Type', JSON_CONTENT_TYPE)
  const headers = { ...defaultHeaders(fault.status, c.req.path, given), ...given }
  for (const [name, value] of Object.entries(headers)) c.header(name, value)
  const body = fault.body !== undefined ? fault.body : defaultBody(c, state, fault.status, path)
  // A string body with the rule's own Content-Type goes out as is (an HTML gateway page, say).
  const customType = Object.keys(given).some((k) => k.toLowerCase() === 'content-type')
  const text = typeof body === 'string' && customType ? body : JSON.stringify(body)
  return c.body(text, fault.status as ContentfulStatusCode)
}

/** 200, a JSON content type, and JSON that stops halfway. The route does not run. */
export function malformed(c: Context<AppEnv>): Response {
  c.header('Content-Type', JSON_CONTENT_TYPE)
  return c.body(MALFORMED_BODY, 200)
}

/** The bytes in chunks, one every `intervalMs`; a client that leaves cancels the pending timer. */
function dribble(
  bytes: Uint8Array,
  chunkBytes: number,
  intervalMs: number
): ReadableStream<Uint8Array> {
  let offset = 0
  let timer: NodeJS.Timeout | undefined
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            controller.enqueue(bytes.subarray(offset, (offset += chunkBytes)))
            if (offset >= bytes.length) controller.close()
            resolve()
          }, intervalMs)
        })
      },
      cancel: () => clearTimeout(timer),
    },
    { highWaterMark: 0 }
  )
}

/** The route's answer with the same status, headers and bytes, sent slowly. */
export async function slowBody(res: Response, fault: NetworkFault): Promise<Response> {
  if (!res.body) return res
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (bytes.byteLength === 0) return res
  const headers = new Headers(res.headers)
  // Announced up front, as a real server would, so the client waits for every byte.
  headers.set('Content-Length', String(bytes.byteLength))
  const chunkBytes = fault.chunkBytes ?? SLOW_BODY_DEFAULTS.chunkBytes
  const intervalMs = fault.intervalMs ?? SLOW_BODY_DEFAULTS.intervalMs
  return new Response(dribble(bytes, chunkBytes, intervalMs), { status: res.status, headers })
}
