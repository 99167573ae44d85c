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

/** Entries by owner, route then key, and all of them in the order they were last used. */
const byOwner = new WeakMap<object, Map<string, Map<string, Entry>>>()
const recent = new Map<Entry, { owner: Map<string, Entry>; key: string }>()
let held = 0

/**
 * What an entry costs: its bytes and its text, which V8 keeps at one byte a character when every
 * character is ASCII (as many as its UTF-8 bytes) and at most two otherwise. Counting every text
 * at two made a page for each of 1,000 keys overflow the cache, and keys read in turn then missed
 * every time.
 */
const sizeOf = (entry: CachedAnswer) =>
  entry.text.length * (entry.bytes.length === entry.text.length ? 1 : 2) + entry.bytes.length

function drop(entry: Entry) {
  const place = recent.get(entry)
  if (!place) return
  recent.delete(entry)
  if (place.owner.get(place.key) === entry) place.owner.delete(place.key)
  held -= sizeOf(entry)
}

/**
 * The answer `build` gives on `route` for `key` of `owner` (a store) at `version`, from the
 * cache when it was built at that version.
 */
export function cachedAnswer(
  owner: object,
  route: string,
  /** A number, or text that combines the versions of several stores. */
  version: number | string,
  key: string,
  build: () => string
): CachedAnswer {
  let routes = byOwner.get(owner)
  if (!routes) byOwner.set(owner, (routes = new Map()))
  let entries = routes.get(route)
  if (!entries) routes.set(route, (entries = new Map()))
  const found = entries.get(key)
  if (found && found.version === version) {
    // Least recently used first out: a hit moves to the end.
    const place = recent.get(found)
    if (place) {
      recent.delete(found)
      recent.set(found, place)
    }
    return found
  }
  if (found) drop(found)
  const text = build()
  // A buffer of its own: a small Buffer.from() would pin a slab of Node's shared pool.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'))
  bytes.write(text, 'utf8')
  const entry: Entry = { text, bytes: bytes as Uint8Array<ArrayBuffer>, version }
  const size = sizeOf(entry)
  if (size > MAX_ANSWER_BYTES) return entry
  held += size
  entries.set(key, entry)
  recent.set(entry, { owner: entries, key })
  for (const oldest of recent.keys()) {
    if (held <= MAX_BYTES) break
    drop(oldest)
  }
  return entry
}
