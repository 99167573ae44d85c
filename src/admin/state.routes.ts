import { z } from 'zod'
import { notFound } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { environmentBytes } from '../memory/estimate.js'
import { DataSchema, type ScenarioData } from '../scenarios/schema.js'
import { ScenarioError } from '../scenarios/loader.js'
import { issueProblems } from '../zod-issues.js'
import { createEnvironment, type Environment } from '../tenancy/environment.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments'>
import { environmentSpec } from '../tenancy/environments.js'
import { streamEnvironment } from './state-export.js'
import { ApiKeyQuerySchema } from './admin.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']

function importEnvironment(state: State, apiKey: string, raw: unknown): Environment {
  const parsed = DataSchema.safeParse(raw)
  if (!parsed.success)
    throw new ScenarioError('the state is not valid', issueProblems(parsed.error.issues))
  const spec = environmentSpec(state.environments.source, apiKey)
  return createEnvironment(spec, withRawRecords(parsed.data, raw))
}

/**
 * The records as sent, once validated: zod rebuilds objects with its declared keys first, and an
 * export fed back in must keep every document's key order to answer byte for byte the same.
 */
function withRawRecords(data: ScenarioData, raw: unknown): ScenarioData {
  const sent = raw as Partial<Record<keyof ScenarioData, unknown>>
  const keep = <
    K extends
      'notificationGroups' | 'subscribers' | 'topics' | 'workflows' | 'messages' | 'notifications',
  >(
    key: K
  ) => (Array.isArray(sent[key]) ? sent[key] : data[key]) as ScenarioData[K]
  return {
    ...data,
    notificationGroups: keep('notificationGroups'),
    subscribers: keep('subscribers'),
    topics: keep('topics'),
    workflows: keep('workflows'),
    messages: keep('messages'),
    ...(data.notifications ? { notifications: keep('notifications') } : {}),
  }
}

export const strictRefusal = () =>
  notFound(`No environment for this API key: the scenario is strict and does not declare it`)

/** The key's environment for a control-plane route: 403 past the limit, 404 when the scenario is strict. */
export function environmentFor(state: State, apiKey: string): Environment {
  const env = state.environments.resolve(apiKey)
  if (!env) throw strictRefusal()
  return env
}

/**
 * Replaces the key's environment with the records sent. The budget is asked first, from the
 * body as parsed and before it is validated or built: the import takes the place of the key's
 * current environment, so only the difference has to fit.
 */
export function replaceEnvironment(state: State, apiKey: string, raw: unknown): Environment {
  if (!state.environments.allows(apiKey)) throw strictRefusal()
  const bytes = environmentBytes(raw)
  state.environments.admitReplacement(apiKey, bytes, 'this state')
  const env = importEnvironment(state, apiKey, raw)
  state.environments.replace(apiKey, env, bytes)
  return env
}

export function stateRoutes(state: State): AnyRoute[] {
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
          schema: lazySchema(() => z.record(z.string(), z.array(z.unknown()))),
        },
      },
      handler: (c, { query }) => streamEnvironment(c, environmentFor(state, query.apiKey)),
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
        403: { description: 'The memory budget cannot hold it (--max-memory-mb)' },
      },
      handler: (c, { query }) =>
        streamEnvironment(c, replaceEnvironment(state, query.apiKey, c.get('body') ?? {})),
    }),
  ]
}
