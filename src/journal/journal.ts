import { pathMatcher } from '../http/path-pattern.js'
import type { Outcome } from '../chaos/rules.schemas.js'
/** One recorded request and what the mock answered. */
export interface JournalEntry {
  id: number
  at: string
  method: string
  path: string
  query: Record<string, string | string[]>
  headers: Record<string, string>
  body?: string
  bodyTruncated?: boolean
  /** The API key, redacted; the environment's id when one was resolved. */
  apiKey?: string
  environmentId?: string
  status: number
  durationMs: number
  /** The id of the chaos rule that fired, if any, and the fault it produced. */
  rule?: string
  fault?: string
  /** What that rule answered: `{status, body?, headers?}`, `{network, …}`; absent when it only delayed or passed the call. */
  outcome?: Outcome
  /** The delay chaos added (global latency plus the rule's), in ms. */
  delayMs?: number
  matched: boolean
  closestRoutes?: string[]
  /**
   * The ObjectIds a 2xx JSON response carried in its first 4 kB, by JSON path
   * (`{"$.data._id": "66fb…"}`): an exported script saves them and reuses them by name.
   */
  responseIds?: Record<string, string>
}

export interface JournalFilter {
  method?: string
  path?: string
  status?: string
  apiKey?: string
  since?: string
  matched?: boolean
  limit?: number
}

/** An entry, or what builds it: the hot path defers the building until someone reads it. */
export type EntrySource = Omit<JournalEntry, 'id'> | (() => Omit<JournalEntry, 'id'>)

interface Slot {
  id: number
  source?: EntrySource
  entry?: JournalEntry
  /** The full key, kept for filtering and never returned. */
  key?: string
}

/** Built once, on first read; later reads return the same object. */
function entryOf(slot: Slot): JournalEntry {
  if (!slot.entry) {
    const source = slot.source as EntrySource
    slot.entry = { id: slot.id, ...(typeof source === 'function' ? source() : source) }
    slot.source = undefined
  }
  return slot.entry
}

/** `200`, or a class such as `4xx`. */
function statusMatcher(status: string): (code: number) => boolean {
  const klass = /^([1-5])xx$/i.exec(status)
  if (klass) return (code) => Math.floor(code / 100) === Number(klass[1])
  return (code) => String(code) === status
}

/**
 * A ring buffer of the last `capacity` requests: memory stays flat whatever the load, because
 * each entry is bounded in size and the oldest is overwritten.
 */
export function createJournal(capacity: number) {
  let slots: (Slot | undefined)[] = new Array(capacity)
  let next = 0
  let total = 0
  let nextId = 1

  // The filter is compiled once per query (its path pattern above all), then run on each entry.
  function select(filter: JournalFilter): Slot[] {
    const method = filter.method?.toUpperCase()
    const path = filter.path ? pathMatcher(filter.path) : undefined
    const status = filter.status ? statusMatcher(filter.status) : undefined
    const since = filter.since ? Date.parse(filter.since) : undefined
    const out: Slot[] = []
    const held = Math.min(total, capacity)
    for (let i = 1; i <= held; i++) {
      const slot = slots[(next - i + capacity) % capacity]
      if (!slot) continue
      const entry = entryOf(slot)
      if (method && entry.method !== method) continue
      if (path && !path(entry.path)) continue
      if (status && !status(entry.status)) continue
      if (filter.apiKey !== undefined && slot.key !== filter.apiKey) continue
      if (since !== undefined && Date.parse(entry.at) < since) continue
      if (filter.matched !== undefined && entry.matched !== filter.matched) continue
      out.push(slot)
    }
    return out
  }

  /** The entries `list` gives, and how many matched before `limit`: one pass, one compiled filter. */
  function search(filter: JournalFilter = {}): { data: JournalEntry[]; totalCount: number } {
    const found = select(filter)
    const kept = filter.limit !== undefined ? found.slice(0, filter.limit) : found
    return { data: kept.map(entryOf), totalCount: found.length }
  }

  return {
    capacity,
    /** Keeps an entry (or its builder) and returns its id. */
    record(source: EntrySource, key?: string): number | undefined {
      if (capacity === 0) return undefined
      const id = nextId++
      slots[next] = { id, source, key }
      next = (next + 1) % capacity
      total++
      return id
    },
    /** Newest first. */
    list: (filter: JournalFilter = {}): JournalEntry[] => search(filter).data,
    search,
    count: (filter: JournalFilter = {}) => select(filter).length,
    size: () => Math.min(total, capacity),
    /** Removes every entry, or only those of one API key (the full key); returns how many went. */
    clear(filter: { apiKey?: string } = {}): number {
      const held = Math.min(total, capacity)
      if (filter.apiKey === undefined) {
        slots = new Array(capacity)
        next = 0
        total = 0
        return held
      }
      // Oldest first, the key's entries left out, then laid out again from slot 0.
      const kept: Slot[] = []
      for (let i = held; i >= 1; i--) {
        const slot = slots[(next - i + capacity) % capacity]
        if (slot && slot.key !== filter.apiKey) kept.push(slot)
      }
      const removed = held - kept.length
      if (removed === 0) return 0
      slots = new Array(capacity)
      kept.forEach((slot, i) => (slots[i] = slot))
      next = kept.length % capacity
      total = kept.length
      return removed
    },
  }
}

export type Journal = ReturnType<typeof createJournal>
