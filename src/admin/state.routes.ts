import { z } from 'zod'
import { notFound } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import { scenarioFailure } from './scenario.routes.js'
import { DataSchema, type ScenarioData } from '../scenarios/schema.js'
import { issuesToProblems, ScenarioError } from '../scenarios/loader.js'
import { buildEnvironmentData } from '../fixtures/seed.js'
import { assembleEnvironment, createIdentity, type Environment } from '../tenancy/environment.js'
import type { MockState } from '../state.js'
import { environmentSpec } from '../tenancy/environments.js'
import { ApiKeyQuerySchema } from './admin.schemas.js'

const tags = ['admin']

/** An environment's data in the scenario record format: feed it back with PUT, or into a scenario's `data`. */
export function exportEnvironment(env: Environment) {
  return {
    notificationGroups: env.groups.list(),
    topics: [...env.topics.all()],
    workflows: env.workflows.all(),
    messages: env.messages.all().map((m) => ({
      ...m,
      subscriberId: m.subscriber.subscriberId,
      workflowId: m._templateId,
    })),
  }
}

export function importEnvironment(state: MockState, apiKey: string, raw: unknown): Environment {
  const parsed = DataSchema.safeParse(raw)
  if (!parsed.success)
    scenarioFailure(
      new ScenarioError('the state is not valid', issuesToProblems(parsed.error.issues))
    )
  const source = state.environments.source
  const { identity, rng, newId } = createIdentity(environmentSpec(source, apiKey))
  try {
    const data = buildEnvironmentData(
      { ...identity, rng, newId, seed: source.seed },
      withRawRecords(parsed.data, raw)
    )
    return assembleEnvironment(identity, rng, newId, source.clock, data)
  } catch (error) {
    return scenarioFailure(error)
  }
}

/**
 * The records as sent, once validated: zod rebuilds objects with its declared keys first, and an
 * export fed back in must keep every document's key order to answer byte for byte the same.
 */
function withRawRecords(data: ScenarioData, raw: unknown): ScenarioData {
  const sent = raw as Partial<Record<keyof ScenarioData, unknown>>
  const keep = <K extends 'notificationGroups' | 'topics' | 'workflows' | 'messages'>(key: K) =>
    (Array.isArray(sent[key]) ? sent[key] : data[key]) as ScenarioData[K]
  return {
    ...data,
    notificationGroups: keep('notificationGroups'),
    topics: keep('topics'),
    workflows: keep('workflows'),
    messages: keep('messages'),
  }
}

function environmentFor(state: MockState, apiKey: string): Environment {
  const env = state.environments.resolve(apiKey)
  if (!env)
    throw notFound(
      `No environment for this API key: the scenario is strict and does not declare it`
    )
  return env
}

export function stateRoutes(state: MockState): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/state',
      summary: "Export one environment's data in the scenario record format",
      tags,
      auth: 'admin',
      query: ApiKeyQuerySchema,
      responses: {
        200: {
          description: 'notificationGroups, topics, workflows and messages',
          schema: z.record(z.string(), z.array(z.unknown())),
        },
      },
      handler: (c, { query }) =>
        json(c, 200, exportEnvironment(environmentFor(state, query.apiKey))),
    }),
    defineRoute({
      method: 'PUT',
      path: '/__admin/state',
      summary: "Replace one environment's data (validated whole; nothing changes on a bad body)",
      tags,
      auth: 'admin',
      query: ApiKeyQuerySchema,
      responses: {
        200: { description: 'Replaced; the new data as GET returns it' },
        400: { description: 'Not valid: every problem with its path' },
      },
      handler(c, { query }) {
        environmentFor(state, query.apiKey)
        const env = importEnvironment(state, query.apiKey, c.get('body') ?? {})
        state.environments.replace(query.apiKey, env)
        return json(c, 200, exportEnvironment(env))
      },
    }),
  ]
}
