import type { Environment } from './tenancy/environment.js'

/** What middleware hands to routes through the Hono context. */
export interface AppEnv {
  Variables: {
    body?: unknown
    rawBody?: string
    env?: Environment
  }
}
