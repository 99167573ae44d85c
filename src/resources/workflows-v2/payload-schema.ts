/**
 * A workflow's payload schema: whether upstream's `@IsValidJsonSchema()` accepts it (an Ajv 8
 * draft-07 instance compiles it), and the example payload responses carry.
 */
import { schemaErrors } from '../../validation/json-schema-check.js'
import { nestingDepth } from '../../workflow-model/document-cast.js'
import { isObj, setOwn, type Obj } from '../../objects.js'

const SCHEMA_DEPTH_LIMIT = 1000

const ref = (to: string) => ({ $ref: to })
const nonNegative = ref('#/definitions/nonNegativeInteger')
const nonNegativeDefault0 = ref('#/definitions/nonNegativeIntegerDefault0')
const schemaArray = ref('#/definitions/schemaArray')

/**
 * The draft-07 meta-schema as Ajv checks every schema against it before compiling (its formats
 * are not checked there; a pattern that is no regular expression fails the compile instead).
 */
const DRAFT_07_META = {
  definitions: {
    schemaArray: { type: 'array', minItems: 1, items: ref('#') },
    nonNegativeInteger: { type: 'integer', minimum: 0 },
    nonNegativeIntegerDefault0: { allOf: [ref('#/definitions/nonNegativeInteger')] },
    simpleTypes: { enum: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] },
    stringArray: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  type: ['object', 'boolean'],
  properties: {
    $id: { type: 'string' },
    $schema: { type: 'string' },
    $ref: { type: 'string' },
    $comment: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    readOnly: { type: 'boolean' },
    examples: { type: 'array' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    maximum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    minimum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    maxLength: nonNegative,
    minLength: nonNegativeDefault0,
    pattern: { type: 'string' },
    additionalItems: ref('#'),
    items: { anyOf: [ref('#'), schemaArray] },
    maxItems: nonNegative,
    minItems: nonNegativeDefault0,
    uniqueItems: { type: 'boolean' },
    contains: ref('#'),
    maxProperties: nonNegative,
    minProperties: nonNegativeDefault0,
    required: ref('#/definitions/stringArray'),
    additionalProperties: ref('#'),
    definitions: { type: 'object', additionalProperties: ref('#') },
    properties: { type: 'object', additionalProperties: ref('#') },
    patternProperties: { type: 'object', additionalProperties: ref('#') },
    dependencies: {
      type: 'object',
      additionalProperties: { anyOf: [ref('#'), ref('#/definitions/stringArray')] },
    },
    propertyNames: ref('#'),
    enum: { type: 'array', minItems: 1, uniqueItems: true },
    type: {
      anyOf: [
        ref('#/definitions/simpleTypes'),
        {
          type: 'array',
          items: ref('#/definitions/simpleTypes'),
          minItems: 1,
          uniqueItems: true,
        },
      ],
    },
    format: { type: 'string' },
    contentMediaType: { type: 'string' },
    contentEncoding: { type: 'string' },
    if: ref('#'),
    then: ref('#'),
    else: ref('#'),
    allOf: schemaArray,
    anyOf: schemaArray,
    oneOf: schemaArray,
    not: ref('#'),
  },
}

const KNOWN_META = new Set([
  'http://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-07/schema#',
])

/**
 * What Ajv's compile also refuses in the subschemas it compiles (not those of unknown keywords,
 * or `definitions` nobody refers to): a `$ref` it cannot resolve (the schema's own pointers and
 * the draft-07 meta-schema resolve), a pattern that is no regular expression, `nullable`
 * without `type` or not a boolean.
 */
function compiles(root: Obj): boolean {
  const base = typeof root.$id === 'string' ? root.$id.replace(/#.*$/, '') : undefined
  const resolve = (target: string): { found: boolean; node?: unknown } => {
    if (KNOWN_META.has(target.replace(/#.*$/, '')) || KNOWN_META.has(target)) return { found: true }
    const local = base && target.startsWith(`${base}#`) ? target.slice(base.length) : target
    if (!local.startsWith('#')) return { found: false }
    let node: unknown = root
    for (const raw of local.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key))
        return { found: false }
      node = (node as Obj)[key]
    }
    return { found: true, node }
  }
  const compilesPattern = (pattern: unknown) => {
    if (typeof pattern !== 'string') return true
    try {
      new RegExp(pattern, 'u')
      return true
    } catch {
      return false
    }
  }
  const seen = new Set<unknown>()
  const stack: unknown[] = [root]
  const schemas = (value: unknown) => (isObj(value) ? Object.values(value) : [])
  while (stack.length) {
    const node = stack.pop()
    if (!isObj(node) || seen.has(node)) continue
    seen.add(node)
    if (typeof node.$ref === 'string') {
      const target = resolve(node.$ref)
      if (!target.found) return false
      stack.push(target.node)
    }
    if (!compilesPattern(node.pattern)) return false
    if ('nullable' in node && (node.type === undefined || typeof node.nullable !== 'boolean'))
      return false
    stack.push(
      ...schemas(node.properties),
      ...schemas(node.patternProperties),
      ...schemas(node.dependencies),
      node.additionalProperties,
      node.additionalItems,
      node.contains,
      node.propertyNames,
      node.not,
      ...(Array.isArray(node.items) ? node.items : [node.items]),
      ...[node.allOf, node.anyOf, node.oneOf].flatMap((list) => (Array.isArray(list) ? list : []))
    )
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined))
      stack.push(node.if, node.then, node.else)
  }
  return true
}

/** Whether `new Ajv({ strict: false }).compile(value)` succeeds (with ajv-formats). */
export function isValidJsonSchema(value: unknown): boolean {
  if (typeof value === 'boolean') return true
  if (!isObj(value)) return false
  // Ajv's meta-schema check recurses: a schema thousands of levels deep overflows it, which the
  // decorator's try/catch reports as an invalid schema.
  if (nestingDepth(value, SCHEMA_DEPTH_LIMIT) > SCHEMA_DEPTH_LIMIT) return false
  if (value.$schema !== undefined && !KNOWN_META.has(value.$schema as string)) return false
  // Ajv already holds the meta-schema under its id.
  if (typeof value.$id === 'string' && KNOWN_META.has(value.$id.replace(/#$/, ''))) return false
  if (schemaErrors(DRAFT_07_META, value).length) return false
  return compiles(value)
}

/* ---------------------------------------------------------------------------------------------
 * The example payload
 */

const STRING_FORMATS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
}

function exampleOf(schema: unknown, now: string, depth: number): unknown {
  if (!isObj(schema) || depth > 20) return undefined
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0]
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  if (type === 'object' || (type === undefined && isObj(schema.properties))) {
    const out: Obj = {}
    for (const [key, sub] of Object.entries(isObj(schema.properties) ? schema.properties : {})) {
      const value = exampleOf(sub, now, depth + 1)
      if (value !== undefined) setOwn(out, key, value)
    }
    return out
  }
  if (type === 'array') {
    const item = exampleOf(schema.items, now, depth + 1)
    return item === undefined ? [] : [item]
  }
  if (type === 'string') {
    const format = typeof schema.format === 'string' ? schema.format : ''
    if (format === 'date-time') return now
    if (format === 'date') return now.slice(0, 10)
    return STRING_FORMATS[format] ?? 'string'
  }
  if (type === 'number' || type === 'integer') {
    const minimum = typeof schema.minimum === 'number' ? schema.minimum : 0
    return type === 'integer' ? Math.ceil(minimum) : minimum
  }
  if (type === 'boolean') return true
  if (type === 'null') return null
  return undefined
}

/**
 * The example payload of a dashboard workflow's payload schema (none for other origins, or
 * without a schema). Upstream fakes one with json-schema-faker; the mock's is deterministic:
 * defaults, examples, consts and enums first, then a plain value of each type.
 */
export function payloadExample(schema: unknown, origin: unknown, now: string): unknown {
  if (!schema || (origin !== 'novu-cloud' && origin !== 'external')) return undefined
  return exampleOf(schema, now, 0)
}
