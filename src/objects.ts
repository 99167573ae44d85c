export type Obj = Record<string, unknown>

/** A plain JSON object: not null, not an array. */
export const isObj = (v: unknown): v is Obj =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Freezes a value and everything in it, for a value handed to many readers (a body parsed once
 * per text, a validated query, a shared schema). Iterative, so that a deeply nested body cannot
 * overflow the stack; a frozen object is taken as frozen through.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value]
  while (stack.length) {
    const item = stack.pop()
    if (item !== null && typeof item === 'object' && !Object.isFrozen(item)) {
      Object.freeze(item)
      for (const inner of Object.values(item)) stack.push(inner)
    }
  }
  return value
}

/**
 * Names that reach an object's prototype (or its constructor's) when used as a key of an
 * ordinary object. lodash's `set` leaves the object unchanged for a path through one of them
 * and its `merge` skips `__proto__`; the mock does the same wherever a key or path comes from
 * input, so that no request reaches Object.prototype.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const isPrototypeKey = (key: string): boolean => PROTOTYPE_KEYS.has(key)

/** Whether a path (its segments) passes through a prototype key. */
export const throughPrototype = (path: readonly string[]): boolean => path.some(isPrototypeKey)

/**
 * `target[key] = value` for a key taken from input: a `__proto__` key becomes an own member, as
 * JSON.parse makes it, instead of the copy's prototype (which would lose the member and lend
 * the copy inherited `toString`, `hasOwnProperty` and the like).
 */
export function setOwn(target: Obj, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  else target[key] = value
}
