import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../app-env.js'
import type { Environment } from '../tenancy/environment.js'
import type { ApiError } from '../errors.js'
import type { Generation, PerGeneration } from '../generations/generation.js'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

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
  /**
   * The validated body may be shared, frozen, by the requests that send the same text: a body
   * sent again (a test suite's fixture) is not validated again. For handlers that never change
   * their input.
   */
  sharedBody?: boolean
  responses: Record<number, { description: string; schema?: z.ZodType }>
  handler: (c: Context<AppEnv>, input: RouteInput<P, Q, B>) => Response | Promise<Response>
}

export type AnyRoute = RouteSpec<any, any, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export const defineRoute = <P, Q, B>(spec: RouteSpec<P, Q, B>): AnyRoute => spec

/** Mounts each route as one handler: `serve` (src/serve.ts) runs the request's steps up to it. */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: AnyRoute[],
  serve: (c: Context<AppEnv>, spec: AnyRoute) => Response | Promise<Response>
) {
  for (const spec of routes) app.on(spec.method, spec.path, (c) => serve(c, spec))
}
