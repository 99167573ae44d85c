import type { Context } from 'hono'
import { createHash, timingSafeEqual } from 'node:crypto'
import { unauthorized } from '../errors.js'

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

/**
 * With a token set, every admin route but health wants `Authorization: Bearer <token>`; Novu
 * routes are unaffected. A step of the request pipeline: throws the 401, or returns.
 */
export function adminGuard(token: string | undefined): (c: Context) => void {
  const matches = token === undefined ? undefined : tokenMatcher(token)
  return function adminGuard(c) {
    // Health stays open: Docker and Kubernetes probes cannot easily carry a token.
    if (matches !== undefined && c.req.path !== `${ADMIN_PREFIX}/health`) {
      const header = c.req.header('authorization') ?? ''
      if (!header.startsWith('Bearer ') || !matches(header.slice(7)))
        throw unauthorized('Admin routes need "Authorization: Bearer <ADMIN_TOKEN>"')
    }
  }
}
