import { z } from 'zod'

// zod helpers for the rule schemas: messages in plain words, and unions that report the
// problems of the variant the input was meant to be.

const EXPECTED: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'true or false',
}

/** Messages that say what to send; every one is shown after the field's path (`fault.status: …`). */
const friendly: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${EXPECTED[issue.expected] ?? issue.expected}`
    case 'too_small':
      return issue.origin === 'array'
        ? `needs at least ${issue.minimum} item(s)`
        : `must be at least ${issue.minimum}`
    case 'too_big':
      return issue.origin === 'array'
        ? `takes at most ${issue.maximum} items`
        : `must be at most ${issue.maximum}`
    case 'invalid_key':
      return issue.issues.map((inner) => inner.message).join('; ')
    case 'unrecognized_keys':
      return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`
    default:
      return undefined
  }
}

export const jsonDoc = (schema: z.ZodType) => {
  const { $schema: _drop, ...doc } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
  })
  return doc
}

/**
 * Documentation computed when the OpenAPI document is first built rather than at import: turning
 * schemas into JSON Schema costs tens of milliseconds of start-up otherwise.
 */
export function lazyDoc(
  keys: string[],
  compute: () => Record<string, unknown>
): Record<string, unknown> {
  let doc: Record<string, unknown> | undefined
  const meta: Record<string, unknown> = {}
  for (const key of keys)
    Object.defineProperty(meta, key, { enumerable: true, get: () => (doc ??= compute())[key] })
  return meta
}

/** Parses `value` with `schema` and reports its issues under the current path, in plain words. */
export function relay<T>(schema: z.ZodType, value: unknown, ctx: z.core.$RefinementCtx): T {
  const result = schema.safeParse(value, { error: friendly })
  if (result.success) return result.data as T
  for (const issue of result.error.issues)
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path })
  return z.NEVER
}

/**
 * A union that reports the problems of the variant the input was meant to be (`pick`), where
 * zod's own union says only "Invalid input". Documented as `anyOf` the variants.
 */
export function variant<T>(
  variants: z.ZodType[],
  pick: (value: unknown) => z.ZodType | string
): z.ZodType<T, unknown> {
  return z
    .unknown()
    .transform((value, ctx) => {
      const schema = value === undefined ? 'is required' : pick(value)
      if (typeof schema !== 'string') return relay<T>(schema, value, ctx)
      ctx.addIssue({ code: 'custom', message: schema })
      return z.NEVER
    })
    .meta(lazyDoc(['anyOf'], () => ({ anyOf: variants.map(jsonDoc) })))
}
