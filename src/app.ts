import { Hono, type Context } from 'hono'
import type { AppEnv } from './app-env.js'
import { generationOf, renderError } from './http/render-error.js'
import { mountRoutes } from './http/route.js'
import { createPipeline } from './http/pipeline.js'
import { NOVU_ROUTES } from './novu-routes.js'
import { adminRoutes } from './admin/admin.routes.js'
import type { MockState } from './state.js'
import { createAuthenticator, revokedKeys } from './tenancy/auth.js'

/**
 * Wires the routes; never listens. No middleware is mounted: each route is one handler that runs
 * the request pipeline (journal, admin token, chaos, body, memory budget) up to it, and a path
 * no route serves runs the same pipeline up to Express's 404, with no auth first.
 */
export function createApp(state: MockState): Hono<AppEnv> {
  // strict: false: like Express, a trailing slash names the same route.
  const app = new Hono<AppEnv>({ strict: false })
  const authenticate = createAuthenticator(state.environments, () => revokedKeys(state.scenario))
  const generationFor = (c: Context<AppEnv>) => generationOf(c, state)
  const serve = createPipeline(state, authenticate, generationFor)
  mountRoutes(app, adminRoutes(state), serve)
  mountRoutes(app, NOVU_ROUTES, serve)
  app.notFound((c) => serve(c, undefined))
  app.onError((error, c) => renderError(c, state, error))
  return app
}
