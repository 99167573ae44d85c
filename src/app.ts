import { Hono } from 'hono'
import type { AppEnv } from './app-env.js'
import { httpError } from './errors.js'
import { jsonBody } from './http/body.js'
import { renderError } from './http/render-error.js'
import { originalUrl } from './http/respond.js'
import { mountRoutes, type AnyRoute } from './http/route.js'
import { messageRoutes } from './resources/messages/messages.routes.js'
import { notificationGroupRoutes } from './resources/notification-groups/notification-groups.routes.js'
import { topicRoutes } from './resources/topics/topics.routes.js'
import { workflowRoutes } from './resources/workflows/workflows.routes.js'
import type { MockState } from './state.js'
import { createAuthenticator } from './tenancy/auth.js'

/** Every Novu operation the mock serves, in one table that also feeds the OpenAPI document. */
export const NOVU_ROUTES: AnyRoute[] = [
  ...topicRoutes,
  ...notificationGroupRoutes,
  ...messageRoutes,
  ...workflowRoutes('/v1/workflows'),
  ...workflowRoutes('/v1/notification-templates'),
]

/** Wires middleware and routes; never listens. */
export function createApp(state: MockState): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use(jsonBody())
  mountRoutes(app, NOVU_ROUTES, createAuthenticator(state.environments))
  // Express's own 404 for an unknown route or method: no auth runs first.
  app.notFound((c) => renderError(c, state, httpError(404, `Cannot ${c.req.method} ${originalUrl(c)}`)))
  app.onError((error, c) => renderError(c, state, error))
  return app
}
