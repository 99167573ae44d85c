import type { Context } from 'hono'
import { createHash, timingSafeEqual } from 'node:crypto'
import { httpError, unauthorized } from '../errors.js'

export const ADMIN_PREFIX = '/__admin'

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest()

/**
 * Whether a sent token is `token`. Node reads header bytes as latin1, so a client that sends the
 * token's UTF-8 bytes (curl, or fetch given them) arrives as those bytes, one character each; an
 * in-process caller (app.request) passes the token itself. Both are compared, always, and as
 * digests, so that neither the token's length nor which form matched shows in the timing.
 */
export function tokenMatcher(token: string): (sent: string) => boolean {
  const expected = digest(Buffer.from(token, 'utf8'))
  return (sent) => {
    const bytes = Buffer.from(sent, 'latin1')
    // Characters beyond latin1 cannot have come off the wire: only the string form applies.
    const fromWire = bytes.toString('latin1') === sent
    const asBytes = timingSafeEqual(digest(bytes), expected)
    const asText = timingSafeEqual(digest(Buffer.from(sent, 'utf8')), expected)
    return (fromWire && asBytes) || asText
  }
}

/** The dashboard's cookie: set once the token was typed into its form. */
export const ADMIN_COOKIE = 'novu_mock_admin'

/**
 * The cookie's value: a digest of the token, not the token, so that the cookie jar never holds
 * the token itself. The same token gives the same value, across restarts.
 */
export const cookieValueOf = (token: string) =>
  createHash('sha256').update(`novu-mock dashboard\u0000${token}`).digest('base64url')

/** What a browser may fetch before it has the cookie: the page (its form), its login and assets. */
const OPEN_PATHS = /^\/__admin\/(health|ui\/?|ui\/login|ui\/assets\/[\w.-]+)$/

/** The cookie sent, if it is the token's. */
export function cookieMatcher(token: string | undefined): (c: Context) => boolean {
  if (token === undefined) return () => false
  const expected = digest(Buffer.from(cookieValueOf(token)))
  return (c) => {
    const sent = cookieOf(c.req.header('cookie'), ADMIN_COOKIE)
    return sent !== undefined && timingSafeEqual(digest(Buffer.from(sent)), expected)
  }
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=')
    if (eq !== -1 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim()
  }
  return undefined
}

/** Whether the request's Origin is the mock's own (scheme, host and port it was reached at). */
function sameOrigin(c: Context): boolean {
  // The server builds the request's URL from its Host header.
  const origin = c.req.header('origin')
  return origin !== undefined && origin === new URL(c.req.url).origin
}

/**
 * With a token set, every admin route but health (and the dashboard's page, form and assets)
 * wants `Authorization: Bearer <token>` or the dashboard's cookie; Novu routes are unaffected.
 * A write carried by the cookie (which a browser sends by itself) must come from the mock's own
 * origin, and a write from a foreign origin is refused however it is authorised. A step of the
 * request path (serve.ts): throws the 401 or 403, or returns.
 */
export function adminGuard(token: string | undefined): (c: Context) => void {
  const matches = token === undefined ? undefined : tokenMatcher(token)
  const cookieMatches = cookieMatcher(token)
  return function adminGuard(c) {
    // Health stays open: Docker and Kubernetes probes cannot easily carry a token.
    if (matches === undefined || OPEN_PATHS.test(c.req.path)) return
    const write = c.req.method !== 'GET' && c.req.method !== 'HEAD'
    if (write && c.req.header('origin') !== undefined && !sameOrigin(c))
      throw httpError(403, 'Admin writes from another origin are refused')
    const header = c.req.header('authorization') ?? ''
    if (header.startsWith('Bearer ') && matches(header.slice(7))) return
    if (cookieMatches(c)) {
      if (write && !sameOrigin(c))
        throw httpError(403, "Admin writes with the dashboard's cookie need the mock's Origin")
      return
    }
    throw unauthorized('Admin routes need "Authorization: Bearer <ADMIN_TOKEN>"')
  }
}
