import { InternalError } from '../errors.js'
import { setOwn, isObj, type Obj } from '../objects.js'

/**
 * How upstream's Mongoose schemas store what a client sends: known fields cast to their
 * types, unknown fields dropped. A value Mongoose cannot cast fails the save, which upstream
 * answers with a 500.
 */

const TRUE = new Set<unknown>([true, 'true', 1, '1', 'yes'])
const FALSE = new Set<unknown>([false, 'false', 0, '0', 'no'])

const castError = (kind: string, value: unknown) =>
  new InternalError(`Cast to ${kind} failed for value ${JSON.stringify(value)}`)

export function castBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined
  if (TRUE.has(value)) return true
  if (FALSE.has(value)) return false
  throw castError('Boolean', value)
}

/** Mongoose's string cast: primitives print, `{_id: "x"}` gives "x", anything else fails. */
export function castString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (isObj(value) && typeof value._id === 'string') return value._id
  throw castError('string', value)
}

/** Mongoose's number cast: "" stores null, booleans and numeric strings become numbers. */
function castNumber(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return undefined
  if (value === '') return null
  const number = typeof value === 'string' || typeof value === 'boolean' ? Number(value) : value
  if (typeof number === 'number' && !Number.isNaN(number)) return number
  throw castError('Number', value)
}

/** Keeps the fields that are set, in the schema's order. */
export function defined(fields: Obj): Obj {
  const out: Obj = {}
  // By key, not Object.entries: a [key, value] pair per field is garbage on every create.
  const keys = Object.keys(fields)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    const value = fields[key]
    if (value !== undefined) setOwn(out, key, value)
  }
  return out
}

const castStrings = (value: unknown) =>
  Array.isArray(value) ? value.map((v) => castString(v) ?? '') : []
const castNumbers = (value: unknown) =>
  Array.isArray(value) ? value.map((v) => castNumber(v) ?? 0) : []

export function castMetadata(value: unknown): Obj {
  const m = isObj(value) ? value : {}
  const timed = isObj(m.timed) ? m.timed : {}
  return defined({
    amount: castNumber(m.amount),
    unit: castString(m.unit),
    digestKey: castString(m.digestKey),
    delayPath: castString(m.delayPath),
    type: castString(m.type),
    backoffUnit: castString(m.backoffUnit),
    backoffAmount: castNumber(m.backoffAmount),
    updateMode: castBoolean(m.updateMode),
    backoff: castBoolean(m.backoff),
    timed: defined({
      atTime: castString(timed.atTime),
      weekDays: castStrings(timed.weekDays),
      monthDays: castNumbers(timed.monthDays),
      ordinal: castString(timed.ordinal),
      ordinalValue: castString(timed.ordinalValue),
      monthlyType: castString(timed.monthlyType),
    }),
  })
}

export function castFilters(value: unknown, newId: () => string): Obj[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObj).map((filter) =>
    defined({
      isNegated: castBoolean(filter.isNegated),
      type: castString(filter.type),
      value: castString(filter.value),
      children: (Array.isArray(filter.children) ? filter.children.filter(isObj) : []).map((child) =>
        defined({
          field: castString(child.field),
          value: child.value,
          operator: castString(child.operator),
          on: castString(child.on),
          webhookUrl: castString(child.webhookUrl),
          timeOperator: castString(child.timeOperator),
          step: castString(child.step),
          stepType: castString(child.stepType),
          _id: newId(),
        })
      ),
      _id: newId(),
    })
  )
}

/** Template variables keep name, type, required (false by default) and a non-empty default. */
export function castVariables(value: unknown, newId: () => string): Obj[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObj).map((v) =>
    defined({
      name: castString(v.name),
      type: castString(v.type),
      required: castBoolean(v.required) ?? false,
      defaultValue: v.defaultValue === '' ? undefined : v.defaultValue,
      _id: newId(),
    })
  )
}

/** The fields every document a user creates ends with: owner, creator, soft-delete flag, timestamps. */
export function ownedDocument(
  ctx: { _environmentId: string; _organizationId: string; _userId: string },
  now: string
) {
  return {
    _environmentId: ctx._environmentId,
    _organizationId: ctx._organizationId,
    _creatorId: ctx._userId,
    deleted: false,
    createdAt: now,
    updatedAt: now,
    __v: 0,
  }
}

export const MAX_DOCUMENT_DEPTH = 100

/**
 * A bound on how deeply a JSON text nests: each level opens with a bracket (those in strings
 * are counted too). Counts no further than `limit + 1`; a search of the text per bracket, no
 * walk of the parsed value.
 */
export function bracketsOpened(text: string, limit: number): number {
  let count = 0
  for (const bracket of ['{', '[']) {
    let at = text.indexOf(bracket)
    while (at !== -1 && count <= limit) {
      count++
      at = text.indexOf(bracket, at + 1)
    }
  }
  return count
}

/**
 * How deeply a JSON value nests, counted without recursion and no further than `limit + 1`.
 * Only objects and arrays go on the stack (leaves add no depth), each beside its depth in a
 * second array: a pair per node would be garbage for every member of every document written.
 */
export function nestingDepth(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0
  if (limit < 1) return 1
  let deepest = 1
  const nodes: object[] = [value]
  const depths: number[] = [1]
  while (nodes.length) {
    const node = nodes.pop() as object
    const childDepth = (depths.pop() as number) + 1
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node)
    for (let i = 0; i < children.length; i++) {
      const child = children[i]
      if (child === null || typeof child !== 'object') continue
      if (childDepth > deepest) {
        deepest = childDepth
        if (deepest > limit) return deepest
      }
      nodes.push(child)
      depths.push(childDepth)
    }
  }
  return deepest
}
