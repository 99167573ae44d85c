import { type Obj } from '../objects.js'

/**
 * `{ ...source }` for an object the caller then adds fields to. On Node 20 a spread's copy gets
 * a map of its own, outside V8's transition tree, so that every field added to it (after the
 * spread or in the same literal) makes a new hidden class: half a microsecond a field, in the
 * trigger's hottest path. Object.assign copies the same own enumerable fields in the same order,
 * onto an ordinary object; it sets `__proto__` rather than copying it, so a source with that own
 * key (JSON.parse makes one) is spread.
 */
export const copyOf = (source: Obj): Obj =>
  Object.hasOwn(source, '__proto__') ? { ...source } : Object.assign({}, source)
