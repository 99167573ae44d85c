import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../app-env.js'
import type { Environment } from '../tenancy/environment.js'
import { validate } from './validate.js'
import { httpError, unauthorized, type ApiError } from '../errors.js'
import { originalUrl } from './respond.js'
import { resolveFor, type Generation, type PerGeneration } from '../generations/generation.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouteInput<P, Q, B> {
  env: Environment
  params: P
  query: Q
  body: B
}

/**
 * One operation: its documentation and its validation come from the same schemas, and the
 * route table that mounts it also writes it into the OpenAPI document.
 */
export interface RouteSpec<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  method: Method
  path: string
  summary: string
  tags: string[]
  /** apiKey: upstream's `Authorization: ApiKey` guard; admin: the control plane's token. */
  auth: 'apiKey' | 'admin'
  /** Whether the generation's server has this route; where it has not, Express's 404 answers. */
  existsIn?: (generation: Generation) => boolean
  /** Upstream's RootEnvironmentGuard: a Production key gets a 401 before any validation. */
  developmentOnly?: boolean
  /**
   * Upstream's auth guard on a route that is not ExternalApiAccessible in this generation: its
   * error for the `ApiKey` scheme, thrown before the key is looked up (undefined: keys welcome).
   */
  apiKeyRefusal?: (generation: Generation) => ApiError | undefined
  params?: z.ZodType<P>
  query?: PerGeneration<z.ZodType<Q>>
  /** Query parameters that upstream turns into numbers before validating (`@Transform`/`@Type`). */
  numericQuery?: readonly string[]
  body?: PerGeneration<z.ZodType<B>>
  responses: Record<number, { description: string; schema?: z.ZodType }>
  handler: (c: Context<AppEnv>, input: RouteInput<P, Q, B>) => Response | Promise<Response>
}

export type AnyRoute = RouteSpec<any, any, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export const defineRoute = <P, Q, B>(spec: RouteSpec<P, Q, B>): AnyRoute => spec

/** Query values as upstream's parser sees them: a repeated name becomes an array. */
export function readQuery(c: Context, numeric: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [sent, values] of Object.entries(c.req.queries())) {
    // Express's extended parser (qs) reads `name[]=a` and `name[0]=a` as the array `name`.
    const bracket = /^(.+?)\[\d*\]$/.exec(sent)
    if (bracket) {
      const name = bracket[1] as string
      const before = out[name]
      out[name] = [...(before === undefined ? [] : ([] as unknown[]).concat(before)), ...values]
      continue
    }
    out[sent] = values.length > 1 ? values : values[0]
  }
  for (const name of numeric) {
    const value = out[name]
    if (value !== undefined) out[name] = typeof value === 'string' ? Number(value) : NaN
  }
  return out
}

/** A body that is not a JSON object validates as the empty object, as upstream's DTOs see it. */
const asObject = (body: unknown) =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}

/** Synchronous once faker has loaded, so a request does not wait a microtask for it. */
export type Authenticator = (c: Context<AppEnv>) => Environment | Promise<Environment>

/**
 * Mounts each route: auth, then params, query and body validated in the environment's generation
 * (the control plane, which has no environment, validates in the mock's active one).
 */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: AnyRoute[],
  authenticate: Authenticator,
  /** The generation a request answers in before its environment is known (the key's, else the mock's). */
  generationOf: (c: Context<AppEnv>) => Generation
) {
  for (const spec of routes) {
    app.on(spec.method, spec.path, async (c) => {
      if (spec.existsIn && !spec.existsIn(generationOf(c)))
        throw httpError(404, `Cannot ${c.req.method} ${originalUrl(c)}`)
      c.set('matched', true)
      const refusal = spec.apiKeyRefusal?.(generationOf(c))
      if (refusal && c.req.header('authorization')?.split(' ')[0] === 'ApiKey') throw refusal
      let env = spec.auth === 'apiKey' ? authenticate(c) : (undefined as unknown as Environment)
      if (env instanceof Promise) env = await env
      // Delays and digests whose wait ended by the environment's clock run before anything reads.
      if (env) env.settle()
      if (spec.developmentOnly && env._parentId)
        throw unauthorized('This action is only allowed in Development environment')
      const admin = spec.auth === 'admin'
      const generation = env ? env.generation : generationOf(c)
      const params = spec.params ? validate(spec.params, c.req.param(), admin) : c.req.param()
      const query = spec.query
        ? validate(resolveFor(spec.query, generation), readQuery(c, spec.numericQuery), admin)
        : {}
      const sent = admin ? (c.get('body') ?? {}) : asObject(c.get('body'))
      const body = spec.body
        ? validate(resolveFor(spec.body, generation), sent, admin)
        : c.get('body')
      return spec.handler(c, { env, params, query, body })
    })
  }
}
