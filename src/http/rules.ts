/**
 * Checks that mirror class-validator, the library behind the real service's DTOs. Each check
 * returns its exact upstream message, or undefined when the value passes. Upstream runs every
 * check of a property (it does not stop at the first failure), so a `field` lists them in the
 * order the real service reports them.
 */
export type Check = (value: unknown, property: string) => string | undefined

const isObjectId = (v: unknown) => typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)

export const isDefined: Check = (v, p) =>
  v === undefined || v === null ? `${p} should not be null or undefined` : undefined
export const isString: Check = (v, p) =>
  typeof v === 'string' ? undefined : `${p} must be a string`
export const isBoolean: Check = (v, p) =>
  typeof v === 'boolean' ? undefined : `${p} must be a boolean value`
export const isArray: Check = (v, p) => (Array.isArray(v) ? undefined : `${p} must be an array`)
export const isInt: Check = (v, p) =>
  typeof v === 'number' && Number.isInteger(v) ? undefined : `${p} must be an integer number`
export const isMongoId: Check = (v, p) => (isObjectId(v) ? undefined : `${p} must be a mongodb id`)
export const isObject: Check = (v, p) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : `${p} must be an object`

export const min =
  (n: number): Check =>
  (v, p) =>
    typeof v === 'number' && v >= n ? undefined : `${p} must not be less than ${n}`

export const max =
  (n: number): Check =>
  (v, p) =>
    typeof v === 'number' && v <= n ? undefined : `${p} must not be greater than ${n}`

export const maxLength =
  (n: number): Check =>
  (v, p) =>
    typeof v === 'string' && v.length <= n
      ? undefined
      : `${p} must be shorter than or equal to ${n} characters`

export const isEnum =
  (values: readonly string[]): Check =>
  (v, p) =>
    typeof v === 'string' && values.includes(v)
      ? undefined
      : `${p} must be one of the following values: ${values.join(', ')}`

/** `@ValidateNested()` without `@Type`: only the container kind is checked, not the members. */
export const nestedObjects: Check = (v, p) => {
  // class-validator skips nested validation of an absent value, but not of null.
  if (v === undefined) return undefined
  if (v === null || typeof v !== 'object')
    return `nested property ${p} must be either object or array`
  if (!Array.isArray(v)) return undefined
  // class-validator names the property, not the index, and Nest prefixes the parent's path
  // (checked against class-validator 0.15.1 with Nest 11's ValidationPipe).
  const bad = v.some((item) => item === null || typeof item !== 'object')
  return bad ? `${p}.nested property ${p} must be either object or array` : undefined
}

export { isObjectId }
