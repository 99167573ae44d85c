import { pathMatcher } from '../http/path-pattern.js'
import type { Outcome } from '../chaos/rules.schemas.js'
import { RESPONSE_HEAD_BYTES } from './response-ids.js'
import { jsonHeapBytes } from '../memory/estimate.js'
import { textBytes } from '../cache.js'
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
  /**
   * What the mock, as upstream does, dropped or changed of what the client sent (an unknown
   * field, a taken workflowId suffixed, an HTML body under the block editor), in words that name
   * the field and the fix; also logged at info.
   */
  notes?: string[]
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
export type EntrySource =
  | Omit<JournalEntry, 'id'>
  | (() => Omit<JournalEntry, 'id'>)
  | {
      toEntry(
        responseHead?: string,
        texts?: readonly (string | undefined)[]
      ): Omit<JournalEntry, 'id'>
    }

/** What a request leaves for its entry besides its builder (see `record`). */
export interface Kept {
  /** The full API key, for filtering; never returned. */
  key?: string
  /** The text of an answer too long to keep: its head is kept as bytes. */
  longAnswer?: string
  /** Texts the builder wants back (the URL, the headers…), kept as bytes when they fit. */
  texts?: (string | undefined)[]
  /** Which of the texts is the key (then `key` need not be given); compared on 256 characters. */
  keyText?: number
  /** The heap the builder holds for this request beyond its own fields (texts, copied headers). */
  heldBytes?: number
}

/**
 * One position of the ring, used again for each request it holds: an object per request would
 * outlive the young generation and become garbage in the old one, which a busy mock fills fast.
 */
class Slot {
  id = 0
  source: EntrySource | undefined = undefined
  entry: JournalEntry | undefined = undefined
  /** The full key, kept for filtering and never returned (or in `texts`, at `keyText`). */
  key: string | undefined = undefined
  keyText: number | undefined = undefined
  /** The slot's position, how many bytes of a long answer's head its region holds. */
  at = 0
  headBytes: number | undefined = undefined
  /** The texts, when they did not fit the region; else `inRegion`. */
  texts: (string | undefined)[] | undefined = undefined
  inRegion = false
  /** The heap it holds beyond its fields and regions: its builder's texts, or its built entry. */
  bytes = 0
}

/**
 * A slot and its builder (two objects of a dozen fields each), and each one's texts, as the
 * memory budget counts them: measured with bench/budget.mjs (460 bytes a GET through
 * app.request, its headers copied), rounded up.
 */
const SLOT_BYTES = 360
const textsHeap = (texts: readonly (string | undefined)[]) => {
  let bytes = 16 + 8 * texts.length
  for (const text of texts) if (text !== undefined) bytes += 24 + textBytes(text)
  return bytes
}

/**
 * What a request leaves in the journal until its entry is read, as UTF-8 bytes in regions of its
 * slot: its texts (URL, headers, key, body head) in one of SMALL_TEXT_BYTES, or of TEXT_BYTES
 * once a request of its chunk needed more; the head of a long answer (over RESPONSE_HEAD_BYTES
 * characters, a created workflow's say) in one of RESPONSE_HEAD_BYTES. Strings kept per request
 * would outlive the young generation and cost a collection later; bytes in a buffer cost nothing
 * to collect. Allocated 64 slots at a time, as the journal fills (answer heads only once a long
 * answer comes); texts that do not fit stay strings.
 */
/** Keys are compared on their first 256 characters (no real key is longer). */
const MAX_KEY = 256
const SLOTS_PER_CHUNK = 64
/** A GET's texts take about 300 bytes: a journal of reads holds a third of what TEXT_BYTES would. */
const SMALL_TEXT_BYTES = 512
const TEXT_BYTES = 1536
const ABSENT = 0xffff
const slotsIn = (capacity: number, index: number) =>
  Math.min(SLOTS_PER_CHUNK, capacity - index * SLOTS_PER_CHUNK)

function chunked(capacity: number, bytesPerSlot: number, allocated: (bytes: number) => void) {
  const chunks: Buffer[] = []
  return (at: number) => {
    const index = Math.floor(at / SLOTS_PER_CHUNK)
    let chunk = chunks[index]
    if (!chunk) {
      chunks[index] = chunk = Buffer.allocUnsafeSlow(slotsIn(capacity, index) * bytesPerSlot)
      allocated(chunk.length)
    }
    return { chunk, offset: (at % SLOTS_PER_CHUNK) * bytesPerSlot }
  }
}

/** Text regions of SMALL_TEXT_BYTES a slot, a chunk widened to TEXT_BYTES when one needs it. */
function textChunks(capacity: number, allocated: (bytes: number) => void) {
  const chunks: { buffer: Buffer; slotBytes: number }[] = []
  const place = (at: number) => {
    const index = Math.floor(at / SLOTS_PER_CHUNK)
    let chunk = chunks[index]
    if (!chunk) {
      const buffer = Buffer.allocUnsafeSlow(slotsIn(capacity, index) * SMALL_TEXT_BYTES)
      chunks[index] = chunk = { buffer, slotBytes: SMALL_TEXT_BYTES }
      allocated(buffer.length)
    }
    const offset = (at % SLOTS_PER_CHUNK) * chunk.slotBytes
    return { chunk: chunk.buffer, offset, end: offset + chunk.slotBytes }
  }
  return {
    place,
    /** Widens the chunk of `at` (every slot keeps its bytes); false when it is wide already. */
    widen(at: number): boolean {
      const index = Math.floor(at / SLOTS_PER_CHUNK)
      const chunk = chunks[index]
      if (!chunk || chunk.slotBytes === TEXT_BYTES) return false
      const slots = slotsIn(capacity, index)
      const wide = Buffer.allocUnsafeSlow(slots * TEXT_BYTES)
      for (let slot = 0; slot < slots; slot++)
        chunk.buffer.copy(
          wide,
          slot * TEXT_BYTES,
          slot * chunk.slotBytes,
          (slot + 1) * chunk.slotBytes
        )
      allocated(wide.length - chunk.buffer.length)
      chunks[index] = { buffer: wide, slotBytes: TEXT_BYTES }
      return true
    },
  }
}

/** Writes the texts at `offset`: their count and lengths, then their bytes; false if they overrun `end`. */
function writeTextsAt(
  chunk: Buffer,
  offset: number,
  end: number,
  list: readonly (string | undefined)[]
): boolean {
  chunk[offset] = list.length
  let position = offset + 1 + 2 * list.length
  if (position > end) return false
  for (let i = 0; i < list.length; i++) {
    const text = list[i]
    let length = ABSENT
    if (text !== undefined) {
      const room = end - position
      length = text.length === 0 ? 0 : chunk.write(text, position, room, 'utf8')
      // A text that filled what was left may have been cut: the region will not do.
      if (room - length < 4 || length >= ABSENT) return false
      position += length
    }
    chunk.writeUInt16LE(length, offset + 1 + 2 * i)
  }
  return true
}

function createRegions(capacity: number) {
  let allocated = 0
  const count = (bytes: number) => (allocated += bytes)
  const heads = chunked(capacity, RESPONSE_HEAD_BYTES, count)
  const texts = textChunks(capacity, count)
  return {
    /** The bytes of every region allocated so far (outside the heap, in buffers). */
    allocated: () => allocated,
    /** Writes the head of `text` (whole characters only); how many bytes it took. */
    writeHead(at: number, text: string): number {
      const { chunk, offset } = heads(at)
      return chunk.write(text, offset, RESPONSE_HEAD_BYTES, 'utf8')
    },
    readHead(at: number, bytes: number): string {
      const { chunk, offset } = heads(at)
      return chunk.toString('utf8', offset, offset + bytes)
    },
    /** Writes the texts, widening the slot's chunk if they need it; false when they do not fit. */
    writeTexts(at: number, list: readonly (string | undefined)[]): boolean {
      const { chunk, offset, end } = texts.place(at)
      if (writeTextsAt(chunk, offset, end, list)) return true
      if (!texts.widen(at)) return false
      const wide = texts.place(at)
      return writeTextsAt(wide.chunk, wide.offset, wide.end, list)
    },
    readTexts(at: number): (string | undefined)[] {
      const { chunk, offset } = texts.place(at)
      const count = chunk[offset] as number
      const out: (string | undefined)[] = []
      let position = offset + 1 + 2 * count
      for (let i = 0; i < count; i++) {
        const length = chunk.readUInt16LE(offset + 1 + 2 * i)
        if (length === ABSENT) out.push(undefined)
        else {
          out.push(chunk.toString('utf8', position, position + length))
          position += length
        }
      }
      return out
    },
  }
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
  const regions = createRegions(capacity)
  /** Slots made, and what they hold beyond their fields and regions (see `heldBytes`). */
  let slotCount = 0
  let outside = 0
  function holds(slot: Slot, bytes: number) {
    outside += bytes - slot.bytes
    slot.bytes = bytes
  }

  const textsOf = (slot: Slot) => (slot.inRegion ? regions.readTexts(slot.at) : slot.texts)

  /** The full key of a slot's request, from wherever it is kept. */
  function keyOf(slot: Slot): string | undefined {
    if (slot.keyText === undefined || slot.entry) return slot.key
    return textsOf(slot)?.[slot.keyText]?.slice(0, MAX_KEY)
  }

  /** Built once, on first read; later reads return the same object. */
  function entryOf(slot: Slot): JournalEntry {
    if (!slot.entry) {
      const source = slot.source as EntrySource
      const head =
        slot.headBytes === undefined ? undefined : regions.readHead(slot.at, slot.headBytes)
      const texts = textsOf(slot)
      if (slot.keyText !== undefined) slot.key = texts?.[slot.keyText]?.slice(0, MAX_KEY)
      const built =
        typeof source === 'function'
          ? source()
          : 'toEntry' in source
            ? source.toEntry(head, texts)
            : source
      slot.entry = { id: slot.id, ...built }
      slot.source = undefined
      slot.headBytes = undefined
      slot.texts = undefined
      slot.inRegion = false
      holds(slot, jsonHeapBytes(slot.entry))
    }
    return slot.entry
  }

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
      if (filter.apiKey !== undefined && keyOf(slot) !== filter.apiKey) continue
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
    /**
     * Keeps an entry's builder, with what it needs (see `Kept`), and returns its id. `make` gets
     * the builder the slot held before if its entry was never built: no one else has it, so it
     * may be filled again rather than a new one made.
     */
    recordReusing(
      make: (previous: EntrySource | undefined) => EntrySource,
      kept: Kept = {}
    ): number | undefined {
      if (capacity === 0) return undefined
      const id = nextId++
      let slot = slots[next]
      const previous = slot && !slot.entry ? slot.source : undefined
      if (!slot) {
        slots[next] = slot = new Slot()
        slotCount++
      }
      slot.id = id
      slot.source = make(previous)
      slot.entry = undefined
      slot.key = kept.key
      slot.keyText = kept.keyText
      slot.at = next
      slot.headBytes =
        kept.longAnswer !== undefined ? regions.writeHead(next, kept.longAnswer) : undefined
      slot.texts = undefined
      slot.inRegion = false
      if (kept.texts) {
        if (regions.writeTexts(next, kept.texts)) slot.inRegion = true
        else slot.texts = kept.texts
      }
      holds(slot, (kept.heldBytes ?? 0) + (slot.texts ? textsHeap(slot.texts) : 0))
      next = (next + 1) % capacity
      total++
      return id
    },
    /** Newest first. */
    list: (filter: JournalFilter = {}): JournalEntry[] => search(filter).data,
    search,
    count: (filter: JournalFilter = {}) => select(filter).length,
    size: () => Math.min(total, capacity),
    /**
     * What the journal holds, as the memory budget counts it: its slots, their regions and
     * what each keeps beside them. Bounded by `capacity` entries of JOURNAL_ENTRY_BYTES at most.
     */
    heldBytes: () => slotCount * SLOT_BYTES + regions.allocated() + outside,
    /** Removes every entry, or only those of one API key (the full key); returns how many went. */
    clear(filter: { apiKey?: string } = {}): number {
      const held = Math.min(total, capacity)
      if (filter.apiKey === undefined) {
        slots = new Array(capacity)
        next = 0
        total = 0
        slotCount = 0
        outside = 0
        return held
      }
      // Oldest first, the key's entries left out, then laid out again from slot 0.
      const kept: Slot[] = []
      for (let i = held; i >= 1; i--) {
        const slot = slots[(next - i + capacity) % capacity]
        if (slot && keyOf(slot) !== filter.apiKey) kept.push(slot)
      }
      const removed = held - kept.length
      if (removed === 0) return 0
      // Moved slots leave their regions: what they keep there is read into their entries first.
      for (const slot of kept) if (slot.headBytes !== undefined || slot.inRegion) entryOf(slot)
      slots = new Array(capacity)
      kept.forEach((slot, i) => (slots[i] = slot))
      next = kept.length % capacity
      total = kept.length
      slotCount = kept.length
      outside = kept.reduce((sum, slot) => sum + slot.bytes, 0)
      return removed
    },
  }
}

export type Journal = ReturnType<typeof createJournal>
