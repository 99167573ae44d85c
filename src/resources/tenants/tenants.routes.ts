import { z } from 'zod'
import { CommandValidationError, httpError, type FieldViolation } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { field, runChecks } from '../../http/validate.js'
import { isString, type Check } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Tenant } from './tenants.store.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * Tenants (more facts §1): per environment, by the customer's identifier. Every route answers
 * 405 while the environment's `IS_V2_ENABLED` flag is on, after the request's DTO passed.
 */

const tags = ['Tenants']
const IdentifierParams = lazySchema(() => z.object({ identifier: z.string() }))

function assertTenantsAvailable(env: Environment) {
  if (env.flags.IS_V2_ENABLED)
    throw httpError(405, 'Tenants is not supported in code first version of the API.')
}

/** Answers of one tenant carry the `id` virtual; list items (lean reads) do not. */
const withId = (t: Tenant) => ({ ...t, id: t._id })

const missing = (env: Environment, identifier: string) =>
  httpError(
    404,
    `Tenant with identifier: ${identifier} does not exist under environment ${env._environmentId}`
  )

const taken = (env: Environment, identifier: string) =>
  httpError(
    409,
    `Tenant with identifier: ${identifier} already exists under environment ${env._environmentId}`
  )

function found(env: Environment, identifier: string): Tenant {
  const tenant = env.tenants.get(identifier)
  if (!tenant) throw missing(env, identifier)
  return tenant
}

const isNotEmpty: Check = (v, p) =>
  v === '' || v === null || v === undefined ? `${p} should not be empty` : undefined

/** `CreateTenantCommand`: identifier and name, each `IsString` and `IsNotEmpty`. */
function createViolations(body: Obj): FieldViolation[] {
  return ['identifier', 'name'].flatMap((property) => {
    const messages = runChecks([isNotEmpty, isString], body[property], property)
    return messages.length ? [{ property, messages, value: body[property] }] : []
  })
}

const optionalText = (name: string) =>
  field<string>(name, [isString], { type: 'string' }, { optional: true })

export const tenantRoutes = [
  defineRoute<Record<string, string>, { page?: number; limit?: number }, unknown>({
    method: 'GET',
    path: '/v1/tenants',
    summary: 'List tenants, newest first, a page at a time',
    tags,
    auth: 'apiKey',
    // Upstream's PaginationRequestDto, as the feed's.
    query: (g) => g.inbox.feedQuery,
    numericQuery: ['page', 'limit'],
    responses: { 200: { description: '{page, hasMore, pageSize, data}, not wrapped' } },
    handler(c, { env, query }) {
      assertTenantsAvailable(env)
      const page = query.page ?? 0
      const limit = query.limit ?? 10
      if (page < 0) env.generation.inbox.negativePage()
      const data = env.tenants.newestFirst().slice(page * limit, page * limit + limit)
      return json(c, 200, { page, hasMore: data.length === limit, pageSize: limit, data })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/tenants/:identifier',
    summary: 'Get a tenant by identifier',
    tags,
    auth: 'apiKey',
    params: IdentifierParams,
    responses: { 200: { description: 'The tenant, in data' } },
    handler(c, { env, params }) {
      assertTenantsAvailable(env)
      return json(c, 200, { data: withId(found(env, params.identifier)) })
    },
  }),
  defineRoute<Record<string, string>, Obj, Obj>({
    method: 'POST',
    path: '/v1/tenants',
    summary: 'Create a tenant',
    tags,
    auth: 'apiKey',
    body: lazySchema(() => z.record(z.string(), z.unknown())),
    responses: { 201: { description: 'The tenant, in data' } },
    handler(c, { env, body }) {
      assertTenantsAvailable(env)
      const violations = createViolations(body)
      if (violations.length) throw new CommandValidationError('CreateTenantCommand', violations)
      const identifier = body.identifier as string
      if (env.tenants.get(identifier)) throw taken(env, identifier)
      const at = env.now()
      const tenant = env.tenants.add({
        identifier,
        name: body.name as string,
        ...(body.data !== undefined ? { data: body.data } : {}),
        _environmentId: env._environmentId,
        _organizationId: env._organizationId,
        _id: env.newId(),
        createdAt: at,
        updatedAt: at,
        __v: 0,
      })
      return json(c, 201, { data: withId(tenant) })
    },
  }),
  defineRoute<{ identifier: string }, Obj, { identifier?: string; name?: string; data?: unknown }>({
    method: 'PATCH',
    path: '/v1/tenants/:identifier',
    summary: 'Rename a tenant, or change its name or data (replaced)',
    tags,
    auth: 'apiKey',
    params: IdentifierParams,
    body: lazySchema(() =>
      z.object({
        identifier: optionalText('identifier'),
        name: optionalText('name'),
        data: z.unknown().optional(),
      })
    ),
    responses: { 200: { description: 'The tenant, in data' } },
    handler(c, { env, params, body }) {
      assertTenantsAvailable(env)
      const tenant = found(env, params.identifier)
      const next =
        body.identifier && body.identifier !== tenant.identifier ? body.identifier : undefined
      if (next && env.tenants.get(next)) throw taken(env, next)
      env.tenants.update(
        tenant,
        {
          ...(next ? { identifier: next } : {}),
          ...(body.name ? { name: body.name } : {}),
          ...(body.data ? { data: body.data } : {}),
        },
        env.now()
      )
      return json(c, 200, { data: withId(tenant) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/tenants/:identifier',
    summary: 'Delete a tenant for good',
    tags,
    auth: 'apiKey',
    params: IdentifierParams,
    responses: { 204: { description: 'Deleted' } },
    handler(c, { env, params }) {
      assertTenantsAvailable(env)
      env.tenants.remove(found(env, params.identifier))
      return c.body(null, 204)
    },
  }),
]
