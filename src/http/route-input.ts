import type { Context } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../app-env.js'
import type { Environment } from '../tenancy/environment.js'
import { validate } from './validate.js'
import { noteOnRequest, quotedNames } from './notes.js'
import { resolveFor } from '../generations/generation.js'
import { BoundedCache, partOf } from '../cache.js'
import { textMemo } from './text-memo.js'
import { deepFreeze } from '../objects.js'
import { unwrapLazy } from '../lazy-schema.js'
import type { AnyRoute, RouteInput } from './route.js'

/** Query values as upstream's parser sees them: a repeated name becomes an array. */
function readQuery(c: Context, numeric: readonly string[] = []): Record<string, unknown> {
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

/**
 * Validated queries by their text, per route and schema: a query string validates to the same
 * value every time, so a repeated one (a client paging, polling) skips parsing and validation.
 * Only successes are kept, a few dozen per schema, none longer than 1 kB.
 */
const validatedTexts = new BoundedCache<string, unknown>('validated queries and paths', {
  maxEntries: 1024,
  maxBytes: 2 * 1024 * 1024,
  // The frozen value, about the size of its text.
  sizeOf: (_value, _key, keyBytes) => keyBytes,
})
const MAX_CACHED_QUERY_LENGTH = 1024

/** `validate()` once per text: the frozen result of the first success, while it is kept. */
function validatedOnce(
  what: 'query' | 'params',
  spec: AnyRoute,
  schema: z.ZodType,
  text: string,
  run: () => unknown
): unknown {
  if (text.length > MAX_CACHED_QUERY_LENGTH) return run()
  const part = partOf(partOf(spec, what), schema)
  const found = validatedTexts.get(text, part)
  return found !== undefined ? found : validatedTexts.set(text, deepFreeze(run()), undefined, part)
}

/** A body validated once per text and schema, on its text's memo (text-memo.ts). */
function validatedBody(
  spec: AnyRoute,
  schema: z.ZodType,
  text: string | undefined,
  run: () => unknown
) {
  const memo = textMemo(text)
  return memo ? memo.validated(partOf(spec, schema), run) : run()
}

function validatedQuery(c: Context<AppEnv>, spec: AnyRoute, schema: z.ZodType, admin: boolean) {
  const url = c.req.url
  const at = url.indexOf('?')
  const text = at === -1 ? '' : url.slice(at + 1)
  return validatedOnce('query', spec, schema, text, () =>
    validate(schema, readQuery(c, spec.numericQuery), admin)
  )
}

/** A body that is not a JSON object validates as the empty object, as upstream's DTOs see it. */
const asObject = (body: unknown) =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}

/** The fields of body schemas that are no plain zod object (a class-validator DTO's, say). */
const declaredFields = new WeakMap<z.ZodType, ReadonlySet<string>>()

/** Declares the top-level fields a body schema reads, so that others are noted as ignored. */
export function withBodyFields<S extends z.ZodType>(schema: S, fields: Iterable<string>): S {
  declaredFields.set(schema, new Set(fields))
  return schema
}

/** Whether a body field is known to the schema; undefined when it keeps unknown fields. */
function knownFields(lazy: z.ZodType): ((name: string) => boolean) | undefined {
  const schema = unwrapLazy(lazy)
  const declared = declaredFields.get(schema)
  if (declared) return (name) => declared.has(name)
  const def = (schema as { _zod: { def: { type: string; catchall?: unknown; shape?: object } } })
    ._zod.def
  if (def.type !== 'object' || def.catchall !== undefined || !def.shape) return undefined
  const shape = def.shape
  return (name) => Object.hasOwn(shape, name)
}

/**
 * Notes the top-level body fields a route's schema does not know: its validation strips them,
 * as upstream's ValidationPipe (no whitelist) leaves them unread. Only plain objects strip.
 */
function noteUnknownFields(c: Context<AppEnv>, spec: AnyRoute, schema: z.ZodType, sent: unknown) {
  const known = knownFields(schema)
  if (!known) return
  const unknown: string[] = []
  for (const name in sent as object) if (!known(name)) unknown.push(name)
  if (unknown.length === 0) return
  const fields = unknown.length === 1 ? 'field' : 'fields'
  noteOnRequest(
    c,
    `Unknown body ${fields} ${quotedNames(unknown)} ignored: ${spec.method} ${spec.path} takes no such ${fields}, and Novu ignores unknown fields too. Check the name against the API reference.`
  )
}

/**
 * The validation step of the request path (serve.ts): a route's params, query and body validated
 * with the schemas of the request's generation (the control plane's too, in the mock's active
 * one), and the body fields the schema does not know noted. A repeated text is validated once.
 */
export function validateInput(
  c: Context<AppEnv>,
  spec: AnyRoute,
  env: Environment | undefined
): RouteInput<unknown, unknown, unknown> {
  const admin = spec.auth === 'admin'
  const generation = c.get('generation')
  // A route's params are made from its path: one validation per path (a status toggled again).
  const params = spec.params
    ? validatedOnce('params', spec, spec.params, c.req.path, () =>
        validate(spec.params as z.ZodType, c.req.param(), admin)
      )
    : c.req.param()
  const query = spec.query ? validatedQuery(c, spec, resolveFor(spec.query, generation), admin) : {}
  const sent = admin ? (c.get('body') ?? {}) : asObject(c.get('body'))
  let body: unknown = c.get('body')
  if (spec.body) {
    const schema = resolveFor(spec.body, generation)
    const run = () => validate(schema, sent, admin)
    body = spec.sharedBody ? validatedBody(spec, schema, c.get('rawBody'), run) : run()
    if (!admin) noteUnknownFields(c, spec, schema, sent)
  }
  return { env: env as Environment, params, query, body }
}
