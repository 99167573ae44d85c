import type { MiddlewareHandler } from 'hono'
import { timingSafeEqual } from 'node:crypto'
import { unauthorized } from '../errors.js'

export const ADMIN_PREFIX = '/__admin'

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** With a token set, every admin route but health wants `Authorization: Bearer <token>`; Novu routes are unaffected. */
export function adminAuth(token: string | undefined): MiddlewareHandler {
  return async function adminAuth(c, next) {
    // Health stays open: Docker and Kubernetes probes cannot easily carry a token.
    if (token !== undefined && c.req.path !== `${ADMIN_PREFIX}/health`) {
      const header = c.req.header('authorization') ?? ''
      if (!header.startsWith('Bearer ') || !sameText(header.slice(7), token))
        throw unauthorized('Admin routes need "Authorization: Bearer <ADMIN_TOKEN>"')
    }
    await next()
  }
}
