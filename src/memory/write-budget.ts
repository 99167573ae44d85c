import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'
import { writeBytes } from './estimate.js'

/**
 * Creates keep what they were sent (a workflow body may be 20 MB): each one is checked against
 * the memory budget before its route runs, and its estimate is added to its environment's once
 * it succeeded. Other methods change documents in place or mark them deleted.
 */
export function writeBudget(state: MockState): MiddlewareHandler<AppEnv> {
  return async function writeBudget(c, next) {
    const body = c.req.method === 'POST' ? c.get('body') : undefined
    if (body === undefined) return next()
    const bytes = writeBytes(body, c.req.path)
    state.environments.budget.admit(bytes, 'this request')
    await next()
    const env = c.get('env')
    if (env && c.res.status < 300) state.environments.grow(env.apiKey, bytes)
  }
}
