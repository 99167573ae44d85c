import type { MiddlewareHandler } from 'hono'
import { timingSafeEqual } from 'node:crypto'
import { unauthorized } from '../errors.js'

export const ADMIN_PREFIX = '/__admin'

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** With a token set, every admin route wants `Authorization: Bearer <token>`; Novu routes are unaffected. */
export function adminAuth(token: string | undefined): MiddlewareHandler {
  return async function adminAuth(c, next) {
    if (token !== undefined) {
      const header = c.req.header('authorization') ?? ''
      if (!header.startsWith('Bearer ') || !sameText(header.slice(7), token))
        throw unauthorized('Admin routes need "Authorization: Bearer <ADMIN_TOKEN>"')
    }
    await next()
  }
}
