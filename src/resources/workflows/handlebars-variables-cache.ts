import { BoundedCache } from '../../cache.js'
import type { TextCost } from './handlebars-limits.js'
import type { ExtractedVariable } from './handlebars-variables.js'

/**
 * The variables extracted from template texts, by text: consumers create many workflows from
 * the same few templates, and parsing is most of the cost. Least recently used first out, held
 * under a count and an estimate of the bytes kept (cache.ts); only texts that were extracted are
 * kept, never one that failed, so a client cannot fill it with refused bodies.
 */
export const CACHE_LIMITS = { entries: 1000, bytes: 16 * 1024 * 1024 } as const

// V8 keeps a name in one or two bytes a character; each variable is an object besides its name.
const CHAR_BYTES = 2
const VARIABLE_BYTES = 64

export interface Extracted {
  variables: readonly ExtractedVariable[]
  /** What extracting the text cost, charged again to every request that uses it. */
  cost: TextCost
}

const extracted = new BoundedCache<string, Extracted>('extracted template variables', {
  maxEntries: CACHE_LIMITS.entries,
  maxBytes: CACHE_LIMITS.bytes,
  sizeOf: ({ cost }) => CHAR_BYTES * cost.nameChars + VARIABLE_BYTES * cost.variables,
})

export const cacheGet = (text: string): Extracted | undefined => extracted.get(text)

export function cacheSet(text: string, entry: Extracted) {
  extracted.set(text, entry)
}

/** How full the cache is, for tests and diagnostics. */
export function cacheUsage() {
  const { entries, bytes } = extracted.stats()
  return { entries, bytes }
}
