/**
 * The answers of list routes, kept while what they read is unchanged: a store counts its writes
 * (its version), and an answer built at one version is served again, text and bytes, until the
 * next write. A page read again costs neither its JSON nor its encoding, and a journal entry
 * that keeps its text shares it instead of holding a copy.
 *
 * One cache for the whole process, bounded in bytes and least recently used first out, so that
 * its memory does not grow with the number of environments (the memory budget's headroom holds
 * it). Answers larger than a tenth of the cache are built every time.
 */

export interface CachedAnswer {
  /** The JSON text, as `json()` would have produced it. */
  readonly text: string
  /** Its UTF-8 bytes, sent as they are. */
  readonly bytes: Uint8Array<ArrayBuffer>
}

interface Entry extends CachedAnswer {
  readonly version: number | string
}

const MAX_BYTES = 8 * 1024 * 1024
const MAX_ANSWER_BYTES = MAX_BYTES / 10

const owners = new WeakMap<object, number>()
let nextOwner = 1
const entries = new Map<string, Entry>()
let held = 0

/** What an entry costs: its text (at most 2 bytes a character) and its bytes. */
const sizeOf = (entry: CachedAnswer) => entry.text.length * 2 + entry.bytes.length

function drop(key: string, entry: Entry) {
  entries.delete(key)
  held -= sizeOf(entry)
}

/**
 * The answer `build` gives for `key` of `owner` (a store) at `version`, from the cache when it
 * was built at that version.
 */
export function cachedAnswer(
  owner: object,
  /** A number, or text that combines the versions of several stores. */
  version: number | string,
  key: string,
  build: () => string
): CachedAnswer {
  let id = owners.get(owner)
  if (id === undefined) owners.set(owner, (id = nextOwner++))
  const full = `${id}\u0000${key}`
  const found = entries.get(full)
  if (found && found.version === version) {
    // Least recently used first out: a hit moves to the end.
    entries.delete(full)
    entries.set(full, found)
    return found
  }
  if (found) drop(full, found)
  const text = build()
  // A buffer of its own: a small Buffer.from() would pin a slab of Node's shared pool.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'))
  bytes.write(text, 'utf8')
  const entry: Entry = { text, bytes: bytes as Uint8Array<ArrayBuffer>, version }
  const size = sizeOf(entry)
  if (size > MAX_ANSWER_BYTES) return entry
  held += size
  entries.set(full, entry)
  for (const [oldest, old] of entries) {
    if (held <= MAX_BYTES) break
    drop(oldest, old)
  }
  return entry
}
