import { z } from 'zod'
import { RequestValidationError } from '../errors.js'
import type { Check } from './rules.js'
import { issueLine } from '../zod-issues.js'

type JsonSchemaDoc = Record<string, unknown>

/**
 * A property validated the way the real service's DTO validates it, as a zod schema whose
 * issues carry upstream's exact messages and whose metadata documents it in the OpenAPI file.
 * An optional property skips its checks when absent or null, like `@IsOptional()`.
 */
export function field<T>(property: string, checks: Check[], doc: JsonSchemaDoc): z.ZodType<T>
export function field<T>(
  property: string,
  checks: Check[],
  doc: JsonSchemaDoc,
  options: { optional: true }
): z.ZodType<T | undefined>
export function field(
  property: string,
  checks: Check[],
  doc: JsonSchemaDoc,
  options: { optional?: boolean } = {}
): z.ZodType {
  const schema = z
    .unknown()
    .superRefine((value, ctx) => {
      if (options.optional && (value === undefined || value === null)) return
      for (const check of checks) {
        const message = check(value, property)
        if (message) ctx.addIssue({ code: 'custom', message })
      }
    })
    .meta(doc)
  return options.optional ? schema.optional() : schema
}

/**
 * Validates one request part as upstream's ValidationPipe does: a failure carries every message
 * in order. The control plane's own schemas name the field in each message (`match.path: ...`).
 */
export function validate(schema: z.ZodType, value: unknown, withPaths = false): unknown {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new RequestValidationError(
    result.error.issues.map((issue) => (withPaths ? issueLine(issue) : issue.message))
  )
}

/**
 * A property whose failures are computed whole (nested members, several messages): each
 * message becomes one issue, in order. Absent or null skips it when optional.
 */
export function fieldWith<T>(
  doc: JsonSchemaDoc,
  messages: (value: unknown) => string[],
  options: { optional?: boolean } = {}
): z.ZodType<T> {
  const schema = z
    .unknown()
    .superRefine((value, ctx) => {
      if (options.optional && (value === undefined || value === null)) return
      for (const message of messages(value)) ctx.addIssue({ code: 'custom', message })
    })
    .meta(doc)
  return (options.optional ? schema.optional() : schema) as unknown as z.ZodType<T>
}

/** Every message the checks give for one value, in order. */
export const runChecks = (checks: Check[], value: unknown, property: string) =>
  checks.map((check) => check(value, property)).filter((m): m is string => m !== undefined)
