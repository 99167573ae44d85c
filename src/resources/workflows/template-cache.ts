import type { TextCost } from './template-limits.js'
import type { ExtractedVariable } from './template-variables.js'

/**
 * The variables extracted from template texts, by text: consumers create many workflows from
 * the same few templates, and parsing is most of the cost. Least recently used first out, held
 * under a count and an estimate of the bytes kept; only texts that were extracted are kept,
 * never one that failed, so a client cannot fill it with refused bodies.
 */
export const CACHE_LIMITS = { entries: 1000, bytes: 16 * 1024 * 1024 } as const

// V8 keeps a string in one or two bytes a character; each variable is an object besides its name.
const CHAR_BYTES = 2
const VARIABLE_BYTES = 64
const ENTRY_BYTES = 128

export interface Extracted {
  variables: readonly ExtractedVariable[]
  /** What extracting the text cost, charged again to every request that uses it. */
  cost: TextCost
}

const entries = new Map<string, Extracted & { bytes: number }>()
let bytes = 0

export function cacheGet(text: string): Extracted | undefined {
  const found = entries.get(text)
  if (!found) return undefined
  entries.delete(text)
  entries.set(text, found)
  return found
}

export function cacheSet(text: string, entry: Extracted) {
  const { variables, nameChars } = entry.cost
  const size = ENTRY_BYTES + CHAR_BYTES * (text.length + nameChars) + VARIABLE_BYTES * variables
  // One entry may not push out a quarter of the others.
  if (size > CACHE_LIMITS.bytes / 4 || entries.has(text)) return
  entries.set(text, { ...entry, bytes: size })
  bytes += size
  for (const [key, old] of entries) {
    if (entries.size <= CACHE_LIMITS.entries && bytes <= CACHE_LIMITS.bytes) break
    entries.delete(key)
    bytes -= old.bytes
  }
}

/** How full the cache is, for tests and diagnostics. */
export const cacheUsage = () => ({ entries: entries.size, bytes })
