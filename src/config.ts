import { z } from 'zod'
import { DEFAULT_MAX_MEMORY_MB } from './memory/budget.js'
import { GENERATION_NAMES } from './generations/generation.js'
import { CHECKED_ONCE, issuePath } from './zod-issues.js'

export const DEFAULT_PORT = 4000
export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_SEED = '42'
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
/** What a trigger for an unknown workflow does: upstream's 422, or (the mock's own) create it. */
const UNKNOWN_WORKFLOWS = ['reject', 'create'] as const
export type UnknownWorkflows = (typeof UNKNOWN_WORKFLOWS)[number]

/** Every option of the mock; the CLI flags and environment variables map onto the same object. */
export const MockOptionsSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
  host: z.string().min(1).default(DEFAULT_HOST),
  seed: z.union([z.string(), z.number()]).transform(String).optional(),
  /** A scenario name (built-in or in scenariosDir) or the path of a scenario file. */
  scenario: z.string().min(1).default('default'),
  scenariosDir: z.string().min(1).optional(),
  /** Global latency in milliseconds added to every Novu route. */
  latency: z.number().min(0).max(600_000).default(0),
  journalSize: z.number().int().min(0).max(1_000_000).default(1000),
  adminToken: z.string().min(1).optional(),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  maxEnvironments: z.number().int().min(1).default(10_000),
  maxRules: z.number().int().min(1).default(1000),
  /** The memory budget of environments, imports, rules and the journal, in MB (sized for a 1 GB container). */
  maxMemoryMb: z.number().int().min(16).max(1_048_576).default(DEFAULT_MAX_MEMORY_MB),
  /** Which Novu server to answer as; the scenario's choice, else 2026-08, when absent. */
  apiGeneration: z.enum(GENERATION_NAMES).optional(),
  /** Workflows per environment in the 2026-08 generation (upstream's 100); 0 lifts the limit. */
  maxWorkflows: z.number().int().min(0).optional(),
  /**
   * 'off' turns every cache of the process off (they are process-wide: every mock in it), as
   * NOVU_MOCK_CACHES=off does; answers are the same either way. 'off:<name>,<name>' turns off
   * those alone (a measure of what each saves). Absent: left as they are.
   */
  caches: z
    .string()
    .regex(/^(?:on|off|off:[^,]+(?:,[^,]+)*)$/, {
      error: "caches must be 'on', 'off' or 'off:<name>,<name>'",
    })
    .optional(),
  /**
   * 'create': a trigger for a workflow identifier the environment does not hold creates a
   * minimal in-app workflow and says so in the journal, so that a team can start before it
   * captures its own (novu-mock capture). Upstream, and the default 'reject', answer 422.
   */
  unknownWorkflows: z.enum(UNKNOWN_WORKFLOWS).default('reject'),
  /**
   * After this many milliseconds without a request, startMock()'s server asks V8 for a
   * memory-reducing collection, which hands the young generation a load grew and the heap's free
   * pages back to the system; and 100 ms after a reset that dropped 16 MB or more. Set, the
   * server also holds V8's young generation at 4 MB a semi-space but under a write load
   * (src/memory/young-generation.ts). Both act on the whole process, so they are off (0) unless
   * set; the CLI sets 30,000.
   */
  idleGcMs: z.number().int().min(0).max(3_600_000).optional(),
})

export type MockOptionsInput = z.input<typeof MockOptionsSchema>
export type MockOptions = z.output<typeof MockOptionsSchema>

export function parseOptions(input: MockOptionsInput = {}): MockOptions {
  const result = MockOptionsSchema.safeParse(input, CHECKED_ONCE)
  if (result.success) return result.data
  const problems = result.error.issues.map((i) => `${issuePath(i) || 'options'}: ${i.message}`)
  throw new Error(`invalid novu-mock options: ${problems.join('; ')}`)
}
