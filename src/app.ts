import { Hono, type Context } from 'hono'
import type { AppEnv } from './app-env.js'
import { httpError } from './errors.js'
import { jsonBody } from './http/body.js'
import { generationOf, renderError } from './http/render-error.js'
import { originalUrl } from './http/respond.js'
import { mountRoutes } from './http/route.js'
import { NOVU_ROUTES } from './novu-routes.js'
import { journal } from './journal/journal.middleware.js'
import { chaos } from './chaos/chaos.middleware.js'
import { adminAuth, ADMIN_PREFIX } from './admin/admin-auth.js'
import { adminRoutes } from './admin/admin.routes.js'
import type { MockState } from './state.js'
import { writeBudget } from './memory/write-budget.js'
import { createAuthenticator, revokedKeys } from './tenancy/auth.js'

/** Wires middleware and routes; never listens. */
export function createApp(state: MockState): Hono<AppEnv> {
  // strict: false: like Express, a trailing slash names the same route.
  const app = new Hono<AppEnv>({ strict: false })
  const authenticate = createAuthenticator(state.environments, () => revokedKeys(state.scenario))
  app.use(journal(state))
  app.use(`${ADMIN_PREFIX}/*`, adminAuth(state.options.adminToken))
  const faults = chaos(state)
  app.use('/v1/*', faults)
  app.use('/v2/*', faults)
  app.use(jsonBody((c) => generationOf(c, state)))
  const writes = writeBudget(state)
  app.use('/v1/*', writes)
  app.use('/v2/*', writes)
  const generationFor = (c: Context<AppEnv>) => generationOf(c, state)
  mountRoutes(app, adminRoutes(state), authenticate, generationFor)
  mountRoutes(app, NOVU_ROUTES, authenticate, generationFor)
  // Express's own 404 for an unknown route or method: no auth runs first.
  app.notFound((c) =>
    renderError(c, state, httpError(404, `Cannot ${c.req.method} ${originalUrl(c)}`))
  )
  app.onError((error, c) => renderError(c, state, error))
  return app
}
