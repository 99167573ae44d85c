/**
 * JSON.stringify for answers that hold JSON text made earlier (a step type's control schemas, a
 * shared variable schema): most of a /v2 workflow's answer is such text, which the answer then
 * copies instead of serialising the same objects on every request.
 */

/** JSON text written as it is where it stands in a value given to `stringifyWithTexts`. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * The mark of the objects and arrays `stringifyWithTexts` opens: a symbol-keyed member, which
 * JSON.stringify and Object.keys skip, and cheaper to set and test than a WeakSet's entry.
 */
const HOLDS_TEXTS = Symbol('holds JSON texts')
type Marked = { [HOLDS_TEXTS]?: true }

/** Marks an object or array as holding a JsonText, directly or in a marked member. */
export function holdingTexts<T extends object>(value: T): T {
  ;(value as Marked)[HOLDS_TEXTS] = true
  return value
}

const holdsTexts = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && (value as Marked)[HOLDS_TEXTS] === true

/**
 * `JSON.stringify(value)` with each JsonText written as its text. Marked objects and arrays are
 * written here, member by member, as JSON.stringify writes them (members that serialise to
 * nothing left out of objects and null in arrays); every other value by JSON.stringify itself.
 */
export function stringifyWithTexts(value: unknown): string | undefined {
  if (value instanceof JsonText) return value.text
  if (!holdsTexts(value)) return JSON.stringify(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++)
      out += (i ? ',' : '') + (stringifyWithTexts(value[i]) ?? 'null')
    return out + ']'
  }
  let out = '{'
  const members = value as Record<string, unknown>
  for (const key of Object.keys(members)) {
    const text = stringifyWithTexts(members[key])
    if (text === undefined) continue
    out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + text
  }
  return out + '}'
}
