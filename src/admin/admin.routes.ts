import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import type { MockState } from '../state.js'
import { ruleRoutes } from '../chaos/rules.routes.js'
import { requestRoutes } from '../journal/requests.routes.js'
import { NOVU_ROUTES } from '../novu-routes.js'
import { buildOpenApiDocument } from '../openapi.js'
import { CachesSchema, HealthSchema } from './admin.schemas.js'
import { cacheBytes, cachesEnabled, cacheStats } from '../cache.js'
import { scenarioRoutes } from './scenario.routes.js'
import { stateRoutes } from './state.routes.js'
import { clockRoutes } from './clock.routes.js'
import { outboxRoutes } from './messages.routes.js'
import { eventRoutes } from './events.routes.js'
import { uiRoutes } from './ui/ui.routes.js'
import { VERSION } from './version.js'
import { webhookRoutes } from '../webhooks/webhooks.routes.js'

/** Every control-plane route under /__admin. */
export function adminRoutes(state: MockState): AnyRoute[] {
  const routes: AnyRoute[] = [
    defineRoute({
      method: 'GET',
      path: '/__admin/health',
      summary: 'Liveness and readiness, for Docker health checks and test setups',
      tags: ['admin'],
      auth: 'admin',
      responses: { 200: { description: 'Up', schema: HealthSchema } },
      handler: (c) =>
        json(c, 200, {
          status: 'ok',
          version: VERSION,
          uptimeMs: Math.round(Date.now() - state.startedAt),
          scenario: state.scenario.name,
          apiGeneration: state.generation().name,
          environments: state.environments.size(),
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/caches',
      summary: "The process's caches: what each holds and how often it answered",
      tags: ['admin'],
      auth: 'admin',
      responses: { 200: { description: 'Every cache', schema: CachesSchema } },
      handler: (c) =>
        json(c, 200, { enabled: cachesEnabled(), bytes: cacheBytes(), caches: cacheStats() }),
    }),
    ...scenarioRoutes(state),
    ...stateRoutes(state),
    ...requestRoutes(state),
    ...ruleRoutes(state),
    ...clockRoutes(state),
    ...outboxRoutes(state),
    ...webhookRoutes(state),
    ...eventRoutes(state),
    ...uiRoutes(state),
  ]
  // One document per generation, built on first read: the scenario may switch it.
  const documents = new Map<string, unknown>()
  routes.push(
    defineRoute({
      method: 'GET',
      path: '/__admin/openapi.json',
      summary: 'The OpenAPI document of the whole mock',
      tags: ['admin'],
      auth: 'admin',
      responses: { 200: { description: 'OpenAPI 3.1' } },
      handler(c) {
        const generation = state.generation()
        let document = documents.get(generation.name)
        if (!document) {
          document = buildOpenApiDocument([...NOVU_ROUTES, ...routes], generation)
          documents.set(generation.name, document)
        }
        return json(c, 200, document)
      },
    })
  )
  return routes
}
