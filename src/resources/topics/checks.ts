import type { Check } from '../../http/rules.js'

/**
 * class-validator checks the topic and subscriber DTOs use beyond those of src/http/rules.ts,
 * each with its exact message. A custom message replaces the default, as `{ message }` does.
 */

/** `@IsNotEmpty()`: only '', null and undefined are empty. */
export const isNotEmpty =
  (message?: string): Check =>
  (v, p) =>
    v === '' || v === null || v === undefined ? (message ?? `${p} should not be empty`) : undefined

/**
 * `@Length(min, max)`, whose message picks its words from the value it failed: a value that is
 * not a string (and not falsy) fails with the message naming both bounds.
 */
export const length =
  (min: number, max: number): Check =>
  (v, p) => {
    if (typeof v === 'string' && v.length >= min && v.length <= max) return undefined
    const size = (v as { length?: unknown } | null | undefined)?.length as number | undefined
    if (!v || (size as number) < min)
      return `${p} must be longer than or equal to ${min} characters`
    if ((size as number) > max) return `${p} must be shorter than or equal to ${max} characters`
    return `${p} must be longer than or equal to ${min} and shorter than or equal to ${max} characters`
  }

/** `@ArrayMinSize(n, { message })`: fails for anything but an array that long. */
export const arrayMinSize =
  (n: number, message?: string): Check =>
  (v, p) =>
    Array.isArray(v) && v.length >= n
      ? undefined
      : (message ?? `${p} must contain at least ${n} elements`)

/** `@ArrayMaxSize(n, { message })`: fails for anything but an array that short. */
export const arrayMaxSize =
  (n: number, message?: string): Check =>
  (v, p) =>
    Array.isArray(v) && v.length <= n
      ? undefined
      : (message ?? `${p} must contain no more than ${n} elements`)

/** `@IsString({ each: true })`: each member of an array; a value that is no array is checked itself. */
export const eachString: Check = (v, p) => {
  const fails = Array.isArray(v)
    ? v.some((item) => typeof item !== 'string')
    : typeof v !== 'string'
  return fails ? `each value in ${p} must be a string` : undefined
}

/** `@IsNumber()` (no NaN, no infinities). */
export const isNumber: Check = (v, p) =>
  typeof v === 'number' && Number.isFinite(v)
    ? undefined
    : `${p} must be a number conforming to the specified constraints`
