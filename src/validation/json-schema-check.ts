/**
 * The part of Ajv 8 (`allErrors: true`, `strict: false`) that upstream's step control schemas
 * use, reporting the same errors in the same order: Ajv checks the untyped keywords (`const`,
 * `enum`, `anyOf`, …) first, then the number, string, array and object keywords, each group
 * only when the data has that type; a lone type with keywords of its own reports a wrong type
 * in its group, any other type list up front.
 */

export type JsonSchema = boolean | { [keyword: string]: unknown }

export interface SchemaError {
  keyword: string
  /** A JSON pointer to the failing value (`/redirect/url`). */
  instancePath: string
  params: Record<string, unknown>
  message: string
}

type SchemaObject = { [keyword: string]: unknown }

const TYPED_KEYWORDS: Record<string, readonly string[]> = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'],
  string: ['maxLength', 'minLength', 'pattern', 'format'],
  array: ['maxItems', 'minItems', 'additionalItems', 'items', 'contains', 'uniqueItems'],
  object: [
    'maxProperties',
    'minProperties',
    'required',
    'propertyNames',
    'additionalProperties',
    'dependencies',
    'properties',
    'patternProperties',
  ],
}
const GROUPS = ['number', 'string', 'array', 'object'] as const

const isSchemaObject = (schema: unknown): schema is SchemaObject =>
  schema !== null && typeof schema === 'object' && !Array.isArray(schema)

function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof data === 'string'
    case 'number':
      return typeof data === 'number'
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data)
    case 'boolean':
      return typeof data === 'boolean'
    case 'null':
      return data === null
    case 'object':
      return data !== null && typeof data === 'object' && !Array.isArray(data)
    case 'array':
      return Array.isArray(data)
    default:
      return false
  }
}

/** Ajv's own equality (fast-deep-equal) for `const`, `enum` and `uniqueItems`. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false
    if (Array.isArray(a) && Array.isArray(b))
      return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]))
    const keysA = Object.keys(a)
    const keysB = Object.keys(b)
    if (keysA.length !== keysB.length) return false
    return keysA.every(
      (key) =>
        Object.prototype.hasOwnProperty.call(b, key) &&
        deepEqual((a as SchemaObject)[key], (b as SchemaObject)[key])
    )
  }
  return a !== a && b !== b
}

/**
 * A text per value, equal for two values exactly when `deepEqual` holds: keys sorted, types
 * kept apart (`1` and `"1"`), -0 as 0.
 */
function canonical(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return String(value)
  if (value === null || typeof value !== 'object') return `~${String(value)}`
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as SchemaObject)[key])}`).join(',')}}`
}

/** The item types Ajv hashes duplicates by (`items` of scalar types only), or undefined. */
function scalarItemTypes(items: unknown): string[] | undefined {
  if (!isSchemaObject(items) || items.type === undefined) return undefined
  const types = (Array.isArray(items.type) ? items.type : [items.type]) as string[]
  return types.length && !types.some((t) => t === 'object' || t === 'array') ? types : undefined
}

/**
 * The pair of equal items Ajv reports, found in one pass. Ajv compares every pair (from the
 * last item down, each with the items before it, nearest first) unless `items` declares scalar
 * types: then it walks down once, keyed by `String(item)` (strings suffixed when there are
 * several types), items of other types skipped, and reports an item with the first one above it
 * it repeats. Its keys live on a plain object, on which `__proto__` never counts as seen.
 */
function duplicatePair(
  data: unknown[],
  types: string[] | undefined
): { i: number; j: number } | undefined {
  if (types) {
    const seen = new Map<string, number>()
    for (let i = data.length - 1; i >= 0; i--) {
      const item = data[i]
      if (!types.some((type) => hasType(type, item))) continue
      const key = types.length > 1 && typeof item === 'string' ? `${item}_` : String(item)
      const j = seen.get(key)
      if (j !== undefined) return { i, j }
      if (key !== '__proto__') seen.set(key, i)
    }
    return undefined
  }
  // The last item equal to an earlier one, with the nearest such earlier item.
  const last = new Map<string, number>()
  let found: { i: number; j: number } | undefined
  data.forEach((item, i) => {
    const key = canonical(item)
    const j = last.get(key)
    if (j !== undefined) found = { i, j }
    last.set(key, i)
  })
  return found
}

/** Unicode code points, as Ajv counts string lengths. */
const codePoints = (text: string) => [...text].length

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

const alwaysValid = (schema: unknown) =>
  schema === true || (isSchemaObject(schema) && Object.keys(schema).every((k) => k === '$schema'))

/** The `format`s the meta-schema uses (ajv-formats' full mode, approximately for URIs). */
const FORMATS: Record<string, (value: string) => boolean> = {
  regex: (value) => {
    try {
      new RegExp(value, 'u')
      return true
    } catch {
      return false
    }
  },
  uri: (value) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(value),
  'uri-reference': (value) => !/\s/.test(value),
}

class Checker {
  readonly errors: SchemaError[] = []

  constructor(private readonly root: unknown) {}

  /** A local `$ref` (`#` or `#/definitions/…`), or undefined when it points elsewhere. */
  resolve(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined
    let target: unknown = this.root
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      if (target === null || typeof target !== 'object' || !Object.hasOwn(target, key))
        return undefined
      target = (target as SchemaObject)[key]
    }
    return target
  }

  private push(keyword: string, path: string, params: Record<string, unknown>, message: string) {
    this.errors.push({ keyword, instancePath: path, params, message })
  }

  /** Checks data against a schema; true when it passes. */
  check(schema: unknown, data: unknown, path: string): boolean {
    const before = this.errors.length
    if (schema === false) {
      this.push('false schema', path, {}, 'boolean schema is false')
      return false
    }
    if (!isSchemaObject(schema) || alwaysValid(schema)) return true
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref)
      if (target !== undefined) this.check(target, data, path)
    }
    const types =
      schema.type === undefined
        ? []
        : ((Array.isArray(schema.type) ? schema.type : [schema.type]) as string[])
    const hasRulesFor = (type: string) =>
      (TYPED_KEYWORDS[type] ?? []).some((keyword) => schema[keyword] !== undefined)
    const upFront = types.length > 0 && !(types.length === 1 && hasRulesFor(types[0] as string))
    const typeError = () =>
      this.push('type', path, { type: schema.type }, `must be ${String(schema.type)}`)
    if (upFront && !types.some((type) => hasType(type, data))) typeError()

    this.untyped(schema, data, path)
    for (const group of GROUPS) {
      if (!hasRulesFor(group)) continue
      if (hasType(group, data)) this.typed(group, schema, data, path)
      else if (!upFront && types.length === 1 && types[0] === group) typeError()
    }
    return this.errors.length === before
  }

  private untyped(schema: SchemaObject, data: unknown, path: string) {
    if ('const' in schema && !deepEqual(data, schema.const))
      this.push('const', path, { allowedValue: schema.const }, 'must be equal to constant')
    if (Array.isArray(schema.enum) && !schema.enum.some((value) => deepEqual(data, value)))
      this.push(
        'enum',
        path,
        { allowedValues: schema.enum },
        'must be equal to one of the allowed values'
      )
    if (schema.not !== undefined) {
      const before = this.errors.length
      const passes = this.check(schema.not, data, path)
      this.errors.length = before
      if (passes) this.push('not', path, {}, 'must NOT be valid')
    }
    if (Array.isArray(schema.anyOf)) this.anyOf(schema.anyOf, data, path)
    if (Array.isArray(schema.oneOf)) this.oneOf(schema.oneOf, data, path)
    if (Array.isArray(schema.allOf)) for (const sub of schema.allOf) this.check(sub, data, path)
  }

  /** Branches until one passes; a passing branch clears what the failed ones reported. */
  private anyOf(branches: unknown[], data: unknown, path: string) {
    const before = this.errors.length
    for (const branch of branches) {
      if (this.check(branch, data, path)) {
        this.errors.length = before
        return
      }
    }
    this.push('anyOf', path, {}, 'must match a schema in anyOf')
  }

  private oneOf(branches: unknown[], data: unknown, path: string) {
    const before = this.errors.length
    const passing: number[] = []
    branches.forEach((branch, index) => {
      if (this.check(branch, data, path)) passing.push(index)
    })
    if (passing.length === 1) {
      this.errors.length = before
      return
    }
    const params = { passingSchemas: passing.length > 1 ? passing.slice(0, 2) : null }
    this.push('oneOf', path, params, 'must match exactly one schema in oneOf')
  }

  private typed(group: string, schema: SchemaObject, data: unknown, path: string) {
    if (group === 'number') this.numberKeywords(schema, data as number, path)
    else if (group === 'string') this.stringKeywords(schema, data as string, path)
    else if (group === 'array') this.arrayKeywords(schema, data as unknown[], path)
    else this.objectKeywords(schema, data as SchemaObject, path)
  }

  private numberKeywords(schema: SchemaObject, data: number, path: string) {
    const limit = (keyword: string, comparison: string, fails: (l: number) => boolean) => {
      const value = schema[keyword]
      if (typeof value === 'number' && fails(value))
        this.push(keyword, path, { comparison, limit: value }, `must be ${comparison} ${value}`)
    }
    limit('maximum', '<=', (l) => !(data <= l))
    limit('minimum', '>=', (l) => !(data >= l))
    limit('exclusiveMaximum', '<', (l) => !(data < l))
    limit('exclusiveMinimum', '>', (l) => !(data > l))
  }

  private stringKeywords(schema: SchemaObject, data: string, path: string) {
    const { maxLength, minLength, pattern } = schema
    if (typeof maxLength === 'number' && codePoints(data) > maxLength)
      this.push(
        'maxLength',
        path,
        { limit: maxLength },
        `must NOT have more than ${maxLength} characters`
      )
    if (typeof minLength === 'number' && codePoints(data) < minLength)
      this.push(
        'minLength',
        path,
        { limit: minLength },
        `must NOT have fewer than ${minLength} characters`
      )
    if (typeof pattern === 'string' && !new RegExp(pattern, 'u').test(data))
      this.push('pattern', path, { pattern }, `must match pattern "${pattern}"`)
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
    if (format && !format(data))
      this.push('format', path, { format: schema.format }, `must match format "${schema.format}"`)
  }

  private arrayKeywords(schema: SchemaObject, data: unknown[], path: string) {
    const { maxItems, minItems, items } = schema
    if (typeof maxItems === 'number' && data.length > maxItems)
      this.push('maxItems', path, { limit: maxItems }, `must NOT have more than ${maxItems} items`)
    if (typeof minItems === 'number' && data.length < minItems)
      this.push('minItems', path, { limit: minItems }, `must NOT have fewer than ${minItems} items`)
    if (Array.isArray(items))
      items.forEach((sub, i) => i < data.length && this.check(sub, data[i], `${path}/${i}`))
    else if (items !== undefined && !alwaysValid(items))
      data.forEach((item, i) => this.check(items, item, `${path}/${i}`))
    if (schema.contains !== undefined) {
      const before = this.errors.length
      const found = data.some((item, i) => this.check(schema.contains, item, `${path}/${i}`))
      this.errors.length = before
      if (!found) this.push('contains', path, {}, 'must contain at least 1 valid item(s)')
    }
    if (schema.uniqueItems === true) {
      const pair = duplicatePair(data, scalarItemTypes(items))
      if (pair)
        this.push(
          'uniqueItems',
          path,
          pair,
          `must NOT have duplicate items (items ## ${pair.j} and ${pair.i} are identical)`
        )
    }
  }

  private objectKeywords(schema: SchemaObject, data: SchemaObject, path: string) {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {}
    if (Array.isArray(schema.required))
      for (const property of schema.required as string[])
        if (data[property] === undefined)
          this.push(
            'required',
            path,
            { missingProperty: property },
            `must have required property '${property}'`
          )
    if (schema.propertyNames !== undefined)
      for (const key of Object.keys(data)) this.check(schema.propertyNames, key, path)
    const additional = schema.additionalProperties
    if (additional !== undefined && !alwaysValid(additional)) {
      for (const key of Object.keys(data)) {
        if (Object.prototype.hasOwnProperty.call(properties, key)) continue
        if (additional === false)
          this.push(
            'additionalProperties',
            path,
            { additionalProperty: key },
            'must NOT have additional properties'
          )
        else this.check(additional, data[key], `${path}/${escapePointer(key)}`)
      }
    }
    if (isSchemaObject(schema.dependencies))
      for (const [key, dependency] of Object.entries(schema.dependencies)) {
        if (data[key] === undefined) continue
        if (Array.isArray(dependency)) {
          for (const needed of dependency as string[])
            if (data[needed] === undefined)
              this.push(
                'dependencies',
                path,
                { property: key, missingProperty: needed },
                `must have property ${needed} when property ${key} is present`
              )
        } else this.check(dependency, data, path)
      }
    for (const [key, sub] of Object.entries(properties))
      if (data[key] !== undefined && !alwaysValid(sub))
        this.check(sub, data[key], `${path}/${escapePointer(key)}`)
  }
}

/** Every error Ajv reports for the data, in its order (empty when the data is valid). */
export function schemaErrors(schema: JsonSchema, data: unknown): SchemaError[] {
  const checker = new Checker(schema)
  checker.check(schema, data, '')
  return checker.errors
}
