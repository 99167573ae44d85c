import { Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import type { AppEnv } from './app-env.js'
import { renderError } from './http/render-error.js'
import { mountRoutes } from './http/route.js'
import { createServe, fixGeneration } from './serve.js'
import { NOVU_ROUTES } from './novu-routes.js'
import { adminRoutes } from './admin/admin.routes.js'
import type { MockState } from './state.js'

/**
 * Wires the routes; never listens. No middleware is mounted: each route is one handler that runs
 * the request's steps (serve.ts) up to it, and a path no route serves runs the same steps up to
 * Express's 404, with no auth first.
 */
export function createApp(state: MockState): Hono<AppEnv> {
  // strict: false: like Express, a trailing slash names the same route. The trie router is the
  // one Hono's default (SmartRouter) settles on for this route table, which its RegExpRouter
  // cannot hold: named directly, the first request no longer builds the RegExpRouter to drop it.
  const app = new Hono<AppEnv>({ strict: false, router: new TrieRouter() })
  const serve = createServe(state)
  mountRoutes(app, adminRoutes(state), serve)
  mountRoutes(app, NOVU_ROUTES, serve)
  app.notFound((c) => serve(c, undefined))
  app.onError((error, c) => {
    // serve() renders its own failures: this is a throw from outside it, which may come first.
    if (c.get('generation') === undefined) fixGeneration(state, c)
    return renderError(c, state, error)
  })
  return app
}
