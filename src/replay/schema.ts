import { z } from 'zod'
import { isCaptureSource } from './json-path.js'

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

const exactlyOne = (keys: readonly string[]) => (value: Record<string, unknown>) =>
  keys.filter((key) => value[key] !== undefined).length === 1

const ReplayRequestSchema = z.strictObject({
  method: z.enum(HTTP_METHODS),
  /** Path and query, relative to the target: `/v1/topics?pageSize=2`. */
  path: z.string().startsWith('/', 'must start with "/"'),
  /** A null value sends no such header: `Authorization: null` drops the default API key. */
  headers: z.record(z.string(), z.string().nullable()).optional(),
  /** Anything but a string is sent as JSON; a string is sent as it is. */
  body: z.unknown().optional(),
})

const ReplayExpectSchema = z.strictObject({
  status: z.number().int().min(100).max(599).optional(),
  /** A partial match: see matchPartial for the exact rule. */
  body: z.unknown().optional(),
  /** Header names are case-insensitive; a value of the form /regex/ is a regular expression. */
  headers: z.record(z.string(), z.string()).optional(),
})

const VariableNameSchema = z
  .string()
  .regex(/^[A-Za-z_][\w-]*$/, 'a variable name is letters, digits, "_" or "-"')

const ReplaySaveSchema = z.record(
  VariableNameSchema,
  z
    .string()
    .refine(isCaptureSource, 'must be a JSON path ($.data[0]._id), "status" or "headers.<name>"')
)

const ADMIN_ACTIONS = ['loadScenario', 'addRule', 'reset', 'clearRules'] as const

const ReplayAdminSchema = z
  .strictObject({
    /** A scenario name, or a whole scenario inline. */
    loadScenario: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
    /** A chaos rule, sent as it is to POST /__admin/rules. */
    addRule: z.record(z.string(), z.unknown()).optional(),
    /** `true` resets every environment; `{ apiKey }` only that key's (`'{{apiKey}}'`: the replay's own). */
    reset: z.union([z.literal(true), z.strictObject({ apiKey: z.string().min(1) })]).optional(),
    clearRules: z.literal(true).optional(),
  })
  .refine(exactlyOne(ADMIN_ACTIONS), {
    message: `give exactly one of ${ADMIN_ACTIONS.join(', ')}`,
  })

const ReplayStepSchema = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    request: ReplayRequestSchema.optional(),
    expect: ReplayExpectSchema.optional(),
    save: ReplaySaveSchema.optional(),
    admin: ReplayAdminSchema.optional(),
    /** Only meaningful against the mock (a chaos rule answered it): skipped with --skip-admin. */
    mockOnly: z.boolean().optional(),
  })
  .refine(exactlyOne(['request', 'admin']), { message: 'a step has either "request" or "admin"' })
  .refine((step) => step.admin === undefined || (!step.expect && !step.save), {
    message: 'an admin step takes no "expect" or "save"',
  })

/**
 * A replay script: steps run in order against any base URL, the mock or the real service.
 *
 * @example
 * const script = ReplayScriptSchema.parse({
 *   name: 'smoke',
 *   steps: [{ request: { method: 'GET', path: '/v1/topics' }, expect: { status: 200 } }],
 * })
 */
export const ReplayScriptSchema = z.strictObject({
  name: z.string().min(1, 'give the script a name'),
  description: z.string().optional(),
  /** The default API key; the CLI's --api-key wins over it. */
  apiKey: z.string().min(1).optional(),
  variables: z.record(VariableNameSchema, z.unknown()).optional(),
  steps: z.array(ReplayStepSchema),
})

export type ReplayScript = z.infer<typeof ReplayScriptSchema>
export type ReplayStep = z.infer<typeof ReplayStepSchema>
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>
export type ReplayExpect = z.infer<typeof ReplayExpectSchema>
export type ReplayAdmin = z.infer<typeof ReplayAdminSchema>
