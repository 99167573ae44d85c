import { z } from 'zod'
import { PathPatternSchema } from '../http/path-pattern.schema.js'
import { isObj } from '../objects.js'
import { jsonDoc, lazyDoc, relay, variant } from './schema-tools.js'
import { lazySchema } from '../lazy-schema.js'

/** Longest delay or hang a rule can cause: long enough for any timeout test, short enough to end. */
export const MAX_DELAY_MS = 600_000
const NETWORK_FAULTS = ['reset', 'empty', 'hang', 'malformed', 'slow-body'] as const
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

type NetworkFaultKind = (typeof NETWORK_FAULTS)[number]

export type Delay =
  | number
  | { distribution: 'fixed'; ms: number }
  | { distribution: 'uniform'; min: number; max: number }
  | { distribution: 'normal'; mean: number; stddev: number }
  | { distribution: 'lognormal'; median: number; sigma: number }

export interface StatusFault {
  status: number
  /** Any JSON; without it, the real service's error body for the status. */
  body?: unknown
  headers?: Record<string, string>
}

export interface NetworkFault {
  network: NetworkFaultKind
  /** slow-body only. */
  chunkBytes?: number
  intervalMs?: number
}

type Fault = StatusFault | NetworkFault
/** One step of a sequence: a fault, or `{ pass: true }` for the real answer. */
export type Outcome = Fault | { pass: true }

/**
 * What a rule matches on.
 * @public Exported for the declaration files: the rule set's views name it.
 */
export interface RuleMatch {
  method?: string | string[]
  /** `/v1/workflows/:id/status`, `/v1/topics*`, or `*`. */
  path?: string
  apiKey?: string
  query?: Record<string, string>
}

export interface Rule {
  id?: string
  description?: string
  match: RuleMatch
  delay?: Delay
  fault?: Fault
  probability?: number
  times?: number
  after?: number
  sequence?: Outcome[]
}

/** Milliseconds a delay may take. */
const ms = () => z.number().min(0).max(MAX_DELAY_MS)

/** The rule's schema and the ones it is made of, built on its first use (lazy-schema.ts). */
function buildRuleSchema(): z.ZodType<Rule, unknown> {
  const Ms = ms()

  const DISTRIBUTIONS: Record<string, z.ZodType> = {
    fixed: z.strictObject({ distribution: z.literal('fixed'), ms: Ms }),
    uniform: z
      .strictObject({ distribution: z.literal('uniform'), min: Ms, max: Ms })
      .refine((d) => d.min <= d.max, { path: ['max'], message: 'must be at least min' }),
    normal: z.strictObject({ distribution: z.literal('normal'), mean: Ms, stddev: Ms }),
    lognormal: z.strictObject({
      distribution: z.literal('lognormal'),
      median: Ms,
      sigma: z.number().min(0).max(10),
    }),
  }

  /** Milliseconds: a bare number is exact (msw's `delay(ms)`); distributions take ms parameters too. */
  const DelaySchema = variant<Delay>([Ms, ...Object.values(DISTRIBUTIONS)], (value) => {
    if (typeof value === 'number') return Ms
    if (!isObj(value)) return 'must be a number of ms or an object with a "distribution"'
    // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
    const name = value.distribution
    return (
      (typeof name === 'string' && Object.hasOwn(DISTRIBUTIONS, name)
        ? DISTRIBUTIONS[name]
        : undefined) ??
      'needs "distribution": "fixed" (ms), "uniform" (min, max), "normal" (mean, stddev) or "lognormal" (median, sigma)'
    )
  })

  const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
  const HeadersSchema = z
    .record(
      z.string().regex(HEADER_NAME, "a header name is letters, digits and !#$%&'*+.^_`|~-"),
      z.string().regex(/^[^\r\n\0]*$/, 'a header value must fit on one line')
    )
    .refine((h) => !Object.keys(h).some((k) => /^(content-length|transfer-encoding)$/i.test(k)), {
      message: 'Content-Length and Transfer-Encoding are set by the mock',
    })

  /** A fault body is kept with its rule and sent on every call it fires for. */
  const MAX_FAULT_BODY_BYTES = 1024 * 1024

  /** The body's size as JSON in UTF-8, or undefined when it is no JSON value. */
  const jsonBytes = (value: unknown) => {
    try {
      const text = JSON.stringify(value)
      return text === undefined ? undefined : Buffer.byteLength(text)
    } catch {
      return undefined
    }
  }

  function checkBody(value: unknown, ctx: z.RefinementCtx) {
    const bytes = jsonBytes(value)
    if (bytes === undefined) ctx.addIssue({ code: 'custom', message: 'must be a JSON value' })
    else if (bytes > MAX_FAULT_BODY_BYTES)
      ctx.addIssue({
        code: 'custom',
        message: `must be at most 1 MB (${MAX_FAULT_BODY_BYTES} bytes) of JSON; it is ${bytes}`,
      })
  }

  /**
   * A fault, or a sequence step, is one flat object: `{ status, body?, headers? }`,
   * `{ network, chunkBytes?, intervalMs? }` or (in a sequence) `{ pass: true }`. Checked by hand so
   * that a mistake gets one clear message instead of a failed union.
   */
  function outcomeSchema(withPass: boolean) {
    const kinds = withPass ? ['status', 'network', 'pass'] : ['status', 'network']
    return z
      .strictObject({
        ...(withPass ? { pass: z.literal(true).optional() } : {}),
        status: z.int().min(400).max(599).optional().meta({ description: 'HTTP status, 400-599' }),
        body: z
          .unknown()
          .superRefine(checkBody)
          .optional()
          .meta({ description: 'any JSON up to 1 MB; default: the real error body' }),
        headers: HeadersSchema.optional(),
        network: z.enum(NETWORK_FAULTS).optional(),
        chunkBytes: z
          .int()
          .min(1)
          .max(65_536)
          .optional()
          .meta({ description: 'slow-body: bytes per chunk (16)' }),
        intervalMs: z
          .number()
          .min(0)
          .max(60_000)
          .optional()
          .meta({ description: 'slow-body: ms between chunks (50)' }),
      })
      .superRefine((o: Record<string, unknown>, ctx) => {
        const given = kinds.filter((k) => o[k] !== undefined)
        const choices = withPass
          ? '"status" (400-599), "network" (reset, empty, hang, malformed, slow-body) or "pass": true'
          : '"status" (400-599) or "network" (reset, empty, hang, malformed, slow-body)'
        if (given.length !== 1)
          ctx.addIssue({ code: 'custom', message: `needs exactly one of ${choices}` })
        for (const key of ['body', 'headers'])
          if (o[key] !== undefined && o.status === undefined)
            ctx.addIssue({ code: 'custom', path: [key], message: 'goes only with "status"' })
        for (const key of ['chunkBytes', 'intervalMs'])
          if (o[key] !== undefined && o.network !== 'slow-body')
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: 'goes only with "network": "slow-body"',
            })
      })
  }

  const FaultSchema = outcomeSchema(false) as unknown as z.ZodType<Fault, unknown>
  const OutcomeSchema = outcomeSchema(true) as unknown as z.ZodType<Outcome, unknown>

  const MethodSchema = z
    .string()
    .refine(
      (m) => (METHODS as readonly string[]).includes(m.toUpperCase()),
      `must be one of ${METHODS.join(', ')}`
    )

  const MatchSchema = z.strictObject({
    method: variant<string | string[]>([MethodSchema, z.array(MethodSchema)], (value) =>
      Array.isArray(value) ? z.array(MethodSchema).min(1) : MethodSchema
    ).optional(),
    path: PathPatternSchema.unwrap()
      .regex(/^(\/|\*)/, 'must start with "/" (or be "*")')
      .regex(/^[^?#]*$/, 'must not hold a query string: use match.query')
      .optional()
      .meta({
        description:
          'exact, with :param segments, or with * wildcards: /v1/workflows/:id/status, /v1/topics*',
      }),
    apiKey: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'only requests made with `ApiKey <apiKey>`' }),
    query: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'query parameters that must all be equal' }),
  })

  const RuleObjectSchema = z
    .strictObject({
      id: z
        .string()
        .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'letters, digits, ".", "_", ":" and "-", at most 128')
        .optional()
        .meta({ description: 'default: rule-1, rule-2, …' }),
      description: z.string().max(1000).optional(),
      match: MatchSchema,
      delay: DelaySchema.optional(),
      fault: FaultSchema.optional(),
      probability: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .meta({ description: 'chance the rule fires, from the seeded PRNG' }),
      times: z.int().min(1).optional().meta({ description: 'fire this many times, then expire' }),
      after: z
        .int()
        .min(0)
        .optional()
        .meta({ description: 'let the first N matching calls through untouched' }),
      sequence: z
        .array(OutcomeSchema)
        .min(1)
        .max(1000)
        .optional()
        .meta({ description: 'one outcome per call, then expire' }),
    })
    .superRefine((rule, ctx) => {
      if (rule.delay === undefined && rule.fault === undefined && rule.sequence === undefined)
        ctx.addIssue({
          code: 'custom',
          message: 'a rule needs a "delay", a "fault" or a "sequence"',
        })
      if (rule.fault !== undefined && rule.sequence !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['sequence'],
          message: 'give either "fault" or "sequence", not both',
        })
    })

  return z
    .unknown()
    .transform((value, ctx) => {
      if (isObj(value)) return relay<Rule>(RuleObjectSchema, value, ctx)
      ctx.addIssue({
        code: 'custom',
        message:
          'a rule is a JSON object such as {"match":{"path":"/v1/topics"},"fault":{"status":503}}',
      })
      return z.NEVER
    })
    .meta(
      lazyDoc(['type', 'properties', 'required', 'additionalProperties'], () =>
        jsonDoc(RuleObjectSchema)
      )
    )
}

/**
 * One chaos rule, as POST /__admin/rules and a scenario's `rules:` take it. Invalid input yields
 * one issue per problem, each with its path (`fault.status`) and a message saying what to send.
 */
export const RuleSchema: z.ZodType<Rule, unknown> = lazySchema(buildRuleSchema)

export const LatencySchema = lazySchema(() =>
  z.strictObject({
    ms: ms().meta({ description: 'added to every Novu route, on top of any rule delay' }),
  })
)

export const RuleViewSchema = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    source: z.enum(['scenario', 'admin']),
    match: z.record(z.string(), z.unknown()),
    matched: z.number().meta({ description: 'calls that matched' }),
    fired: z.number().meta({ description: 'calls the rule acted on' }),
    remaining: z.object({
      times: z.number().optional(),
      after: z.number().optional(),
      sequence: z.number().optional(),
    }),
  })
)
