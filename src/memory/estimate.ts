/**
 * Heap estimates, in bytes, made before anything is built: the memory budget refuses work it
 * cannot hold instead of letting V8 abort the process. The figures were measured on Node 20
 * (x64) with `--expose-gc`, heap growth over 10,000 to 100,000 records of each kind, and
 * rounded up by about a quarter; estimates may run high, never far low.
 */

/** One faker-made record of each `generate` kind (a transaction is about two messages). */
const GENERATED_BYTES = {
  notificationGroups: 520,
  topics: 2_000,
  workflows: 6_000,
  transactions: 4_200,
} as const

/** What building one declared record adds on top of the record itself (ids, owner, defaults). */
export const BUILT_BYTES = {
  notificationGroups: 500,
  subscribers: 500,
  topics: 600,
  workflows: 2_200,
  messages: 2_700,
  // Not measured: a small document each, the size of a group's.
  preferences: 500,
  tenants: 500,
} as const

/** What one entry of a nested list builds: a step, or a topic's subscription (and subscriber). */
const STEP_BYTES = 1_300
const NESTED_BYTES: Partial<Record<keyof typeof BUILT_BYTES, [string, number][]>> = {
  workflows: [['steps', STEP_BYTES]],
  topics: [
    ['subscribers', 1_400],
    ['subscriptions', 1_400],
  ],
}

/** An environment's identity, stores and indexes before any record. */
const ENVIRONMENT_BYTES = 16 * 1024

type Kind = keyof typeof BUILT_BYTES
const KINDS = Object.keys(BUILT_BYTES) as Kind[]

// V8 (64-bit, no pointer compression): an object's header and a slot per property, an array's
// header and backing store, a string's header and chars. An object with many keys becomes a
// hash table, whose entries and spare capacity cost several slots a property.
const OBJECT = 64
const PROPERTY = 24
const MANY_KEYS = 32
const HASHED_PROPERTY = 64
const ARRAY = 40
const ELEMENT = 8
const STRING = 24
const HEAP_NUMBER = 16

const isSmallInteger = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 30

/** The characters of a text as V8 holds them: two bytes each when any is past Latin-1. */
export function textBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  const wide = /[^\u0000-\u00ff]/.test(text)
  return text.length * (wide ? 2 : 1)
}

const stringBytes = (text: string) => STRING + textBytes(text)

/**
 * The heap a parsed JSON (or YAML) value takes, walked without recursion so that deep nesting
 * cannot overflow the stack; shared or cyclic parts are counted once.
 */
export function jsonHeapBytes(value: unknown): number {
  let bytes = 0
  const seen = new Set<object>()
  const stack: unknown[] = [value]
  while (stack.length) {
    const item = stack.pop()
    if (typeof item === 'string') bytes += stringBytes(item)
    else if (typeof item === 'number') bytes += isSmallInteger(item) ? 0 : HEAP_NUMBER
    else if (item !== null && typeof item === 'object') {
      if (seen.has(item)) continue
      seen.add(item)
      if (Array.isArray(item)) {
        bytes += ARRAY + item.length * ELEMENT
        for (const element of item) stack.push(element)
      } else {
        const keys = Object.keys(item)
        bytes += OBJECT + keys.length * (keys.length > MANY_KEYS ? HASHED_PROPERTY : PROPERTY)
        for (const key of keys) {
          bytes += stringBytes(key)
          stack.push((item as Record<string, unknown>)[key])
        }
      }
    }
  }
  return bytes
}

/**
 * `jsonHeapBytes` of a list of JSON scalars (a compact workflow's values), the same figure
 * without the walk's set and stack: one is counted on every create of a repeated body.
 */
export function scalarsHeapBytes(list: readonly (string | number | boolean | null)[]): number {
  let bytes = ARRAY + list.length * ELEMENT
  for (let i = 0; i < list.length; i++) {
    const item = list[i]
    if (typeof item === 'string') bytes += stringBytes(item)
    else if (typeof item === 'number') bytes += isSmallInteger(item) ? 0 : HEAP_NUMBER
  }
  return bytes
}

const lengthOf = (record: unknown, field: string) => {
  const list = (record as Record<string, unknown> | null)?.[field]
  return Array.isArray(list) ? list.length : 0
}

/**
 * What building declared records adds beyond the records themselves (counted with
 * `jsonHeapBytes`): records in the scenario record format, from a scenario's `data` or an import.
 */
function builtBytes(data: unknown): number {
  if (data === null || typeof data !== 'object') return 0
  const records = data as Partial<Record<Kind, unknown>>
  let bytes = 0
  for (const kind of KINDS) {
    const list = records[kind]
    if (!Array.isArray(list)) continue
    bytes += list.length * BUILT_BYTES[kind]
    for (const [field, each] of NESTED_BYTES[kind] ?? [])
      for (const record of list) bytes += lengthOf(record, field) * each
  }
  return bytes
}

type GenerateCounts = Partial<Record<keyof typeof GENERATED_BYTES, number>>

function generatedBytes(counts: GenerateCounts | undefined): number {
  if (!counts) return 0
  let bytes = 0
  for (const [kind, each] of Object.entries(GENERATED_BYTES))
    bytes += (counts[kind as keyof GenerateCounts] ?? 0) * each
  return bytes
}

/**
 * One environment built from records and counts in the scenario record format; `recordBytes`
 * when the caller has already measured the records with `jsonHeapBytes`.
 */
export function environmentBytes(data: unknown, recordBytes = jsonHeapBytes(data)): number {
  const generate = (data as { generate?: GenerateCounts } | null)?.generate
  return ENVIRONMENT_BYTES + recordBytes + builtBytes(data) + generatedBytes(generate)
}

/** Whether a create on this path makes a workflow (with its steps' templates). */
export const isWorkflowPath = (path: string) =>
  /\/(workflows|notification-templates)(\/|$)/.test(path)

/**
 * A dashboard (/v2) workflow keeps more than a v1 one: its steps' control values, issues and
 * schemas. Measured as the figures above (2.6 kB with no step, 33 kB with eight), rounded up.
 */
const V2_WORKFLOW_BYTES = 3_500
const V2_STEP_BYTES = 5_000

/**
 * What a successful create keeps: the body (its strings end up in the document) and the
 * document, a workflow (with its steps' templates) or a smaller one.
 */
export function writeBytes(body: unknown, path: string): number {
  return valueBytes(jsonHeapBytes(body), path) + documentBytes(body, path)
}

const isV2WorkflowPath = (path: string) => path.startsWith('/v2/') && isWorkflowPath(path)

/**
 * What a body's values (measured with `jsonHeapBytes`) take once written. A dashboard workflow
 * keeps more than its values: measured with a 200 kB control value or payload schema, 217 to
 * 258 kB a write, so they count half again.
 */
export const valueBytes = (bytes: number, path: string) =>
  isV2WorkflowPath(path) ? Math.ceil(bytes * 1.5) : bytes

/**
 * What a create through the routes adds beside its body's values (measured with
 * bench/budget.mjs, then rounded up by about a fifth): a workflow's ids, defaults and each
 * step's message template (its texts are the body's), a subscriber's or a topic's ids and
 * defaults; 500 bytes for any other record. Keys are counted in the body's values, though a
 * record shares them with every other of its kind.
 */
const CREATED_WORKFLOW_BYTES = 1_600
const CREATED_STEP_BYTES = 700
const CREATED_BYTES: [RegExp, number][] = [
  [/^\/v[12]\/subscribers\/?$/, 300],
  [/^\/v[12]\/topics\/?$/, 250],
]
const OTHER_CREATED_BYTES = 500

/** What a written document keeps beside the body's own values: its record, its steps. */
export function documentBytes(body: unknown, path: string): number {
  const steps = lengthOf(body, 'steps')
  if (isV2WorkflowPath(path)) return V2_WORKFLOW_BYTES + steps * V2_STEP_BYTES
  if (isWorkflowPath(path)) return CREATED_WORKFLOW_BYTES + steps * CREATED_STEP_BYTES
  for (const [pattern, bytes] of CREATED_BYTES) if (pattern.test(path)) return bytes
  return OTHER_CREATED_BYTES
}
