import { z } from 'zod'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import { activateScenario, resetState } from '../scenarios/activate.js'
import { BUILTIN_SCENARIOS_DIR, readScenarioFile, validateScenario } from '../scenarios/loader.js'
import type { MockState } from '../state.js'
import {
  LoadScenarioBodySchema,
  OptionalApiKeyQuerySchema,
  ScenarioSummarySchema,
} from './admin.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']

export function scenarioRoutes(state: MockState): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/scenarios',
      summary: 'List the scenarios that can be loaded',
      tags,
      auth: 'admin',
      responses: {
        200: {
          description: 'Built-in and SCENARIOS_DIR scenarios',
          schema: lazySchema(() => z.object({ data: z.array(ScenarioSummarySchema) })),
        },
      },
      handler(c) {
        const data = state.registry.list().map((file) => {
          let description = ''
          try {
            description = readScenarioFile(file.file, { noFollow: true }).description
          } catch (error) {
            description = `(does not load: ${(error as Error).message})`
          }
          const source = file.dir === BUILTIN_SCENARIOS_DIR ? 'builtin' : 'user'
          return { name: file.name, description, source }
        })
        return json(c, 200, { data })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/scenario',
      summary: 'Show the active scenario',
      tags,
      auth: 'admin',
      responses: { 200: { description: 'The active scenario, as validated' } },
      handler: (c) => json(c, 200, { data: state.scenario }),
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/scenario',
      summary: 'Load a scenario by name or inline, and reset every environment to it',
      tags,
      auth: 'admin',
      body: LoadScenarioBodySchema,
      responses: {
        200: { description: 'Loaded; the active scenario' },
        400: {
          description: 'The scenario is not valid: every problem with its path; nothing changed',
        },
        404: { description: 'No scenario of that name' },
      },
      handler(c, { body }) {
        const scenario =
          body.name !== undefined ? state.registry.load(body.name) : validateScenario(body.scenario)
        activateScenario(state, scenario)
        return json(c, 200, { data: state.scenario })
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/reset',
      summary: 'Rebuild every environment (or one, with apiKey) from the active scenario',
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      responses: { 200: { description: 'Reset done' } },
      handler(c, { query }) {
        resetState(state, query.apiKey)
        return json(c, 200, {
          data: {
            reset: query.apiKey === undefined ? 'all' : 'environment',
            scenario: state.scenario.name,
          },
        })
      },
    }),
  ]
}
