import { z } from 'zod'
import { defineRoute, type AnyRoute } from '../../http/route.js'
import type { MockState } from '../../state.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['dashboard']

const EnvironmentParams = lazySchema(() =>
  z.object({ environmentId: z.string().regex(/^[0-9a-f]{24}$/) })
)
const PreviewParams = lazySchema(() =>
  EnvironmentParams.unwrap().extend({ messageId: z.string().max(64) })
)

/**
 * The dashboard's routes. The dashboard itself (its page, assets and helpers) loads on its first
 * request, so that a mock no one looks at pays nothing for it at start-up or after.
 */
export function uiRoutes(state: MockState): AnyRoute[] {
  const dashboard = () => import('./dashboard.js')
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/ui',
      summary: 'The dashboard: outbox, journal, environments, chaos rules',
      tags,
      auth: 'admin',
      responses: { 200: { description: 'HTML (with ADMIN_TOKEN set and no cookie: its form)' } },
      handler: async (c) => (await dashboard()).page(c, state),
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/ui/login',
      summary: "Trade ADMIN_TOKEN for the dashboard's HttpOnly cookie",
      tags,
      auth: 'admin',
      body: lazySchema(() => z.object({ token: z.string().max(4096) })),
      responses: {
        204: { description: 'The cookie is set' },
        401: { description: 'Not the token' },
      },
      handler: async (c, { body }) => (await dashboard()).login(c, state, body.token),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/ui/assets/:name',
      summary: "The dashboard's script and style sheet",
      tags,
      auth: 'admin',
      params: lazySchema(() => z.object({ name: z.string().max(64) })),
      responses: { 200: { description: 'The file' }, 404: { description: 'No such file' } },
      handler: async (c, { params }) => (await dashboard()).asset(c, params.name),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/ui/preview/:environmentId/:messageId',
      summary: "An email's HTML, sandboxed: no script runs and nothing loads from the network",
      tags,
      auth: 'admin',
      params: PreviewParams,
      responses: { 200: { description: 'The HTML' }, 404: { description: 'No such email' } },
      handler: async (c, { params }) =>
        (await dashboard()).preview(c, state, params.environmentId, params.messageId),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/ui/environments',
      summary: 'The environments held: key (redacted), generation, clock, record counts',
      tags,
      auth: 'admin',
      responses: { 200: { description: '{ data: [...] }' } },
      handler: async (c) => (await dashboard()).environments(c, state),
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/ui/environments/:environmentId/reset',
      summary: 'Reset one environment, named by its id (the dashboard never holds a whole key)',
      tags,
      auth: 'admin',
      params: EnvironmentParams,
      responses: { 200: { description: 'Reset' }, 404: { description: 'No such environment' } },
      handler: async (c, { params }) =>
        (await dashboard()).resetEnvironment(c, state, params.environmentId),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/ui/environments/:environmentId/state',
      summary: "Export one environment's data, named by its id",
      tags,
      auth: 'admin',
      params: EnvironmentParams,
      responses: { 200: { description: 'As GET /__admin/state' } },
      handler: async (c, { params }) =>
        (await dashboard()).exportEnvironment(c, state, params.environmentId),
    }),
    defineRoute({
      method: 'PUT',
      path: '/__admin/ui/environments/:environmentId/state',
      summary: "Replace one environment's data, named by its id",
      tags,
      auth: 'admin',
      params: EnvironmentParams,
      responses: { 200: { description: 'As PUT /__admin/state' } },
      handler: async (c, { params }) =>
        (await dashboard()).importEnvironment(c, state, params.environmentId),
    }),
  ]
}
