import { httpError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import { shortId } from '../workflows-v2/workflows-v2.usecases.js'
import { CreateIntegrationBodySchema, type CreateIntegrationBody } from './integrations.schemas.js'
import type { IntegrationDocument } from './integrations.store.js'

/**
 * The integrations the subscriber credential routes hang on: create and list, per environment.
 * A new environment has Novu's own in-app, email and SMS providers only. No provider's
 * credentials are checked (upstream checks only email ones, by sending).
 */

const tags = ['Integrations']

function create(env: Environment, body: CreateIntegrationBody): IntegrationDocument {
  const name = body.name ?? body.providerId
  const identifier =
    body.identifier ?? `${env.generation.identifiers.slug(name, env.rng)}-${shortId(env)}`
  if (env.integrations.identifierTaken(identifier))
    throw httpError(409, 'Integration with identifier already exists')
  const at = env.now()
  const doc: IntegrationDocument = {
    _id: env.newId(),
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    providerId: body.providerId,
    channel: body.channel,
    credentials: { ...(body.credentials ?? {}) },
    configurations: { ...(body.configurations ?? {}) },
    active: body.active ?? false,
    name,
    identifier,
    priority: 0,
    primary: false,
    conditions: body.conditions ?? [],
    deleted: false,
    createdAt: at,
    updatedAt: at,
    __v: 0,
  }
  return env.integrations.add(doc)
}

/** A GET of the environment's live integrations that `keep` keeps, in creation order. */
function listRoute(path: string, summary: string, keep: (i: IntegrationDocument) => boolean) {
  return defineRoute({
    method: 'GET',
    path,
    summary,
    tags,
    auth: 'apiKey',
    responses: { 200: { description: 'The integrations, in data' } },
    handler(c, { env }) {
      return json(c, 200, { data: env.integrations.all().filter((i) => !i.deleted && keep(i)) })
    },
  })
}

export const integrationRoutes = [
  defineRoute<Record<string, string>, Obj, CreateIntegrationBody>({
    method: 'POST',
    path: '/v1/integrations',
    summary: 'Create an integration (a provider a channel sends with)',
    tags,
    auth: 'apiKey',
    body: CreateIntegrationBodySchema,
    responses: {
      201: { description: 'The integration, in data' },
      409: { description: 'Integration with identifier already exists' },
    },
    handler(c, { env, body }) {
      return json(c, 201, { data: create(env, body) })
    },
  }),
  listRoute('/v1/integrations', "The environment's integrations, in creation order", () => true),
  listRoute('/v1/integrations/active', "The environment's active integrations", (i) => i.active),
]
