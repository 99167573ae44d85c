import { z } from 'zod'
import { ApiError, badRequest, httpError } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import { activateScenario, resetState } from '../scenarios/activate.js'
import {
  BUILTIN_SCENARIOS_DIR,
  readScenarioFile,
  ScenarioError,
  validateScenario,
} from '../scenarios/loader.js'
import type { MockState } from '../state.js'
import { RuleSetError } from '../chaos/rules.js'
import {
  LoadScenarioBodySchema,
  OptionalApiKeyQuerySchema,
  ScenarioSummarySchema,
} from './admin.schemas.js'

const tags = ['admin']

/** A scenario that fails to load answers 400 with one `path: message` line per problem. */
export function scenarioFailure(error: unknown): never {
  if (error instanceof RuleSetError) throw badRequest(error.problems)
  if (!(error instanceof ScenarioError)) throw error
  if (error.message.startsWith('Unknown scenario')) throw httpError(404, error.message)
  const lines = error.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message))
  throw badRequest(lines.length ? lines : [error.message])
}

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
          schema: z.object({ data: z.array(ScenarioSummarySchema) }),
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
        try {
          const scenario =
            body.name !== undefined
              ? state.registry.load(body.name)
              : validateScenario(body.scenario)
          activateScenario(state, scenario)
        } catch (error) {
          if (error instanceof ApiError) throw error
          scenarioFailure(error)
        }
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
