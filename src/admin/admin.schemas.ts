import { GENERATION_NAMES } from '../generations/generation.js'
import { z } from 'zod'
import { lazySchema, once } from '../lazy-schema.js'

export const ApiKeyQuerySchema = lazySchema(() =>
  z.object({
    apiKey: z
      .string()
      .min(1)
      .max(256)
      .meta({ description: 'the API key whose environment is meant' }),
  })
)

export const OptionalApiKeyQuerySchema = lazySchema(() =>
  z.object({
    apiKey: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: "only this key's environment" }),
  })
)

export const LoadScenarioBodySchema = lazySchema(() =>
  z
    .strictObject({
      name: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'a built-in or SCENARIOS_DIR scenario' }),
      scenario: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'a whole scenario, inline' }),
    })
    .refine((b) => (b.name === undefined) !== (b.scenario === undefined), {
      message: 'give either "name" or "scenario", not both',
    })
)

export const HealthSchema = lazySchema(() =>
  z.object({
    status: z.literal('ok'),
    version: z.string(),
    uptimeMs: z.number(),
    scenario: z.string(),
    apiGeneration: z.enum(GENERATION_NAMES),
    environments: z.number(),
  })
)

const CacheStatsSchema = once(() =>
  z.object({
    name: z.string(),
    kind: z.enum(['bounded', 'weak']),
    entries: z.number(),
    bytes: z.number(),
    maxEntries: z.number().nullable(),
    maxBytes: z.number().nullable(),
    hits: z.number(),
    misses: z.number(),
    hitRate: z.number(),
  })
)

export const CachesSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    bytes: z.number(),
    caches: z.array(CacheStatsSchema()),
  })
)

export const ScenarioSummarySchema = lazySchema(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    source: z.enum(['builtin', 'user']),
  })
)
