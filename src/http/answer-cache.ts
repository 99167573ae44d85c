import { BoundedCache, partOf } from '../cache.js'

/**
 * The answers of list routes, kept while what they read is unchanged: a store counts its writes
 * (its version), and an answer built at one version of every store it reads is served again,
 * text and bytes, until the next write to any of them. A page read again costs neither its JSON
 * nor its encoding, and a journal entry that keeps its text shares it instead of holding a copy.
 *
 * One cache for the whole process (cache.ts), bounded in bytes, keys included, so that its
 * memory does not grow with the number of environments; a reset releases the entries of the
 * environment's stores. Answers larger than a tenth of the cache are built every time.
 */

export interface CachedAnswer {
  /** The JSON text, as `json()` would have produced it. */
  readonly text: string
  /** Its UTF-8 bytes, sent as they are. */
  readonly bytes: Uint8Array<ArrayBuffer>
}

/** A store whose every write moves its version. */
export interface Versioned {
  version(): number
}

interface Entry extends CachedAnswer {
  readonly version: number | string
}

const MAX_BYTES = 8 * 1024 * 1024

/**
 * What an entry costs: its bytes and its text, which V8 keeps at one byte a character when every
 * character is ASCII (as many as its UTF-8 bytes) and at most two otherwise. Counting every text
 * at two made a page for each of 1,000 keys overflow the cache, and keys read in turn then missed
 * every time.
 */
const sizeOf = (entry: Entry) =>
  entry.text.length * (entry.bytes.length === entry.text.length ? 1 : 2) + entry.bytes.length

const answers = new BoundedCache<string, Entry>('list answers', {
  maxEntries: 100_000,
  maxBytes: MAX_BYTES,
  maxEntryBytes: MAX_BYTES / 10,
  sizeOf,
})

/** The version of what a render reads: every store's, so that none can be forgotten. */
function versionOf(reads: readonly [Versioned, ...Versioned[]]): number | string {
  if (reads.length === 1) return reads[0].version()
  let version = String(reads[0].version())
  for (let i = 1; i < reads.length; i++) version += `:${(reads[i] as Versioned).version()}`
  return version
}

/**
 * The answer `build` gives on `route` for `key`, from the cache when it was built at the
 * current version of every store in `reads` (the first owns the entry: a reset releases it).
 * `build` may read nothing but those stores and the key.
 */
export function cachedAnswer(
  reads: readonly [Versioned, ...Versioned[]],
  route: string,
  key: string,
  build: () => string
): CachedAnswer {
  const owner = reads[0]
  const version = versionOf(reads)
  const part = partOf(owner, route)
  const found = answers.get(key, part)
  if (found && found.version === version) return found
  const text = build()
  // A buffer of its own: a small Buffer.from() would pin a slab of Node's shared pool.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'))
  bytes.write(text, 'utf8')
  const entry: Entry = { text, bytes: bytes as Uint8Array<ArrayBuffer>, version }
  return answers.set(key, entry, owner, part)
}
