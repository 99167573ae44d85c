/**
 * Every cache of the process, in one vocabulary: a bounded cache (least recently used first out,
 * under a count of entries and of bytes, its keys counted), or a weak one (by the identity of an
 * object that holds it alive). Each registers under a name, and the registry knows what every
 * one holds and how often it answered: the memory budget counts their bytes (and empties them
 * before it refuses work), `GET /__admin/caches` shows them, and a reset releases the entries
 * an environment's stores held.
 *
 * A cache never changes an answer: `NOVU_MOCK_CACHES=off` (the `caches: 'off'` option, the
 * `--caches off` flag) turns every one off for the process, and CI runs the suites so to prove it.
 * `NOVU_MOCK_CACHES=off:<name>,<name>` turns off only the caches so named (as `GET
 * /__admin/caches` lists them; a name no cache has is ignored): `node bench/caches.mjs` measures
 * what each cache saves so.
 */

export interface CacheStats {
  name: string
  kind: 'bounded' | 'weak'
  /** Entries held; for a weak cache, those stored since it was last emptied (some may be collected). */
  entries: number
  /** Bytes held, keys included: an estimate (for a weak cache, of the entries stored since it was emptied). */
  bytes: number
  maxEntries: number | null
  maxBytes: number | null
  hits: number
  misses: number
  /** hits / (hits + misses), 0 before the first lookup. */
  hitRate: number
}

interface Registered {
  stats(): CacheStats
  clear(): void
  release(scope: object): void
  /** Turns this one cache off (emptied) or back on. */
  turn(on: boolean): void
}

const registry = new Map<string, Registered>()
let enabled = true
/** The caches turned off by name, each cache besides the process-wide switch. */
let offByName = new Set<string>()

/** Whether caches are on in this process. */
export const cachesEnabled = () => enabled

/** Turns every cache on or off for the whole process (off empties them). */
export function setCachesEnabled(on: boolean) {
  enabled = on
  if (!on) clearCaches()
}

/** Turns off the caches so named (emptied) and every other back on: a measure of what each saves. */
function setCachesOff(names: Iterable<string>) {
  offByName = new Set(names)
  for (const [name, cache] of registry) cache.turn(!offByName.has(name))
}

/**
 * `on`, `off` (every cache), or `off:<name>,<name>` (those alone, the others on): the
 * `NOVU_MOCK_CACHES` setting and the `caches` option.
 */
export function applyCachesSetting(setting: string) {
  const text = setting.trim()
  const named = /^off:/i.test(text)
  setCachesOff(
    named
      ? text
          .slice(4)
          .split(',')
          .map((name) => name.trim())
      : []
  )
  setCachesEnabled(named || text.toLowerCase() !== 'off')
}

function register(name: string, cache: Registered) {
  if (registry.has(name)) throw new Error(`a cache named "${name}" is registered already`)
  registry.set(name, cache)
  cache.turn(!offByName.has(name))
}

/** What each cache holds, by name. */
export const cacheStats = (): CacheStats[] =>
  [...registry.values()].map((cache) => cache.stats()).sort((a, b) => a.name.localeCompare(b.name))

/** The bytes every cache holds together. */
export function cacheBytes(): number {
  let total = 0
  for (const cache of registry.values()) total += cache.stats().bytes
  return total
}

/** Empties every cache (the memory budget does before it refuses work). */
export function clearCaches() {
  for (const cache of registry.values()) cache.clear()
}

/** Drops every entry stored for `scope` (an environment's store), in every cache. */
export function releaseCaches(scope: object) {
  for (const cache of registry.values()) cache.release(scope)
}

/** What V8 keeps for a text: one byte a character when all are Latin-1, two otherwise. */
export function textBytes(text: string): number {
  // A scan of the first characters is enough for an estimate, and bounded.
  for (let i = 0; i < text.length && i < 256; i++)
    if (text.charCodeAt(i) > 0xff) return text.length * 2
  return text.length
}

/** What a key costs besides its entry: a text's characters, nothing for an object held elsewhere. */
const keyBytes = (key: unknown) => (typeof key === 'string' ? textBytes(key) : 0)
/** A Map entry and the cache's own record of it. */
const ENTRY_OVERHEAD = 96

interface Slot<K, V> {
  readonly part: object | undefined
  readonly key: K
  value: V
  bytes: number
  scope: object | undefined
  /** Its neighbours in the order of use: a use relinks two slots, no set is hashed. */
  older: Slot<K, V> | undefined
  newer: Slot<K, V> | undefined
}

/** The byte bound of a cache that names none: enough for a few hundred small entries. */
const DEFAULT_MAX_BYTES = 1024 * 1024

export interface BoundedOptions<K, V> {
  maxEntries: number
  /** 1 MB unless told: every cache is bounded in bytes, its keys included. */
  maxBytes?: number
  /**
   * The value's bytes (its key is counted besides, as `keyBytes`, which a size made from the
   * key's length can use instead of measuring it again); 0 by default.
   */
  sizeOf?: (value: V, key: K, keyBytes: number) => number
  /** An entry larger than this is not kept (a quarter of maxBytes by default). */
  maxEntryBytes?: number
}

/**
 * A cache bounded by entries and bytes, least recently used first out. A key may sit in a
 * `part` (see `partOf`): a text looked up in its part costs no concatenation of the two.
 */
export class BoundedCache<K, V> {
  /** The keys stored in no part: most caches have no other, and a lookup costs one Map's. */
  private readonly plain = new Map<K, Slot<K, V>>()
  private readonly parts = new Map<object, Map<K, Slot<K, V>>>()
  /** The ends of the order of use, a list through the slots: the first out, the last used. */
  private oldest: Slot<K, V> | undefined
  private newest: Slot<K, V> | undefined
  private count = 0
  /** Entries stored for a scope: none (most caches) and a release looks no further. */
  private scoped = 0
  private held = 0
  private hits = 0
  private misses = 0
  /** Turned off by name (`setCachesOff`). */
  private off = false
  readonly maxEntries: number
  readonly maxBytes: number
  /** An entry larger than this is not kept: it would push out too many others. */
  readonly maxEntryBytes: number

  constructor(
    readonly name: string,
    private readonly options: BoundedOptions<K, V>
  ) {
    this.maxEntries = options.maxEntries
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
    this.maxEntryBytes = options.maxEntryBytes ?? this.maxBytes / 4
    register(name, {
      stats: () => this.stats(),
      clear: () => this.clear(),
      release: (scope) => this.release(scope),
      turn: (on) => {
        this.off = !on
        if (!on) this.clear()
      },
    })
  }

  private keysIn(part: object | undefined) {
    return part === undefined ? this.plain : this.parts.get(part)
  }

  /** The value kept for `key` (in `part`), now the most recently used; undefined when none (or caches are off). */
  get(key: K, part?: object): V | undefined {
    if (!enabled || this.off) return undefined
    const newest = this.newest
    // The key used last again (a body's text on each step of its request, a path against every
    // rule): compared as it is, not hashed and looked up.
    if (newest !== undefined && newest.key === key && newest.part === part) {
      this.hits++
      return newest.value
    }
    const slot = this.keysIn(part)?.get(key)
    if (!slot) {
      this.misses++
      return undefined
    }
    this.hits++
    this.unlink(slot)
    this.link(slot)
    return slot.value
  }

  /** Whether `key` is kept, without using it. */
  has(key: K, part?: object): boolean {
    return enabled && !this.off && this.keysIn(part)?.has(key) === true
  }

  /**
   * Keeps `value` under `key` (in `part`; for `scope`, which `release` drops it with), unless
   * caches are off or it is too large; the least recently used go until the bounds hold.
   * Answers `value`.
   */
  set(key: K, value: V, scope?: object, part?: object): V {
    if (!enabled || this.off) return value
    let keys = this.keysIn(part)
    const before = keys?.get(key)
    if (before) {
      this.drop(before)
      keys = this.keysIn(part)
    }
    const ownBytes = keyBytes(key)
    const bytes = ENTRY_OVERHEAD + ownBytes + (this.options.sizeOf?.(value, key, ownBytes) ?? 0)
    if (bytes > this.maxEntryBytes) return value
    const slot: Slot<K, V> = { part, key, value, bytes, scope, older: undefined, newer: undefined }
    if (!keys) this.parts.set(part as object, (keys = new Map()))
    keys.set(key, slot)
    this.link(slot)
    this.count++
    this.held += bytes
    if (scope) this.scoped++
    while (this.oldest && (this.count > this.maxEntries || this.held > this.maxBytes))
      this.drop(this.oldest)
    return value
  }

  /** The value for `key`, made by `make` and kept when it was not. */
  memo(key: K, make: () => V, scope?: object): V {
    const found = this.get(key)
    return found !== undefined ? found : this.set(key, make(), scope)
  }

  delete(key: K, part?: object) {
    const slot = this.keysIn(part)?.get(key)
    if (slot) this.drop(slot)
  }

  /** Puts `slot` last in the order of use. */
  private link(slot: Slot<K, V>) {
    slot.older = this.newest
    slot.newer = undefined
    if (this.newest) this.newest.newer = slot
    else this.oldest = slot
    this.newest = slot
  }

  private unlink(slot: Slot<K, V>) {
    const { older, newer } = slot
    if (older) older.newer = newer
    else this.oldest = newer
    if (newer) newer.older = older
    else this.newest = older
    slot.older = slot.newer = undefined
  }

  private drop(slot: Slot<K, V>) {
    const keys = this.keysIn(slot.part)
    if (keys?.get(slot.key) !== slot) return
    keys.delete(slot.key)
    if (keys.size === 0 && slot.part !== undefined) this.parts.delete(slot.part)
    this.unlink(slot)
    this.count--
    this.held -= slot.bytes
    if (slot.scope) this.scoped--
  }

  clear() {
    this.plain.clear()
    this.parts.clear()
    this.oldest = this.newest = undefined
    this.count = 0
    this.scoped = 0
    this.held = 0
  }

  /** Drops the entries stored for `scope`: a walk of them all, made at a reset, not on every set. */
  release(scope: object) {
    for (let slot = this.oldest; slot && this.scoped > 0;) {
      const next = slot.newer
      if (slot.scope === scope) this.drop(slot)
      slot = next
    }
  }

  stats(): CacheStats {
    return {
      name: this.name,
      kind: 'bounded',
      entries: this.count,
      bytes: this.held,
      maxEntries: this.maxEntries,
      maxBytes: this.maxBytes,
      hits: this.hits,
      misses: this.misses,
      hitRate: hitRate(this.hits, this.misses),
    }
  }
}

const hitRate = (hits: number, misses: number) =>
  hits + misses === 0 ? 0 : Math.round((hits / (hits + misses)) * 1000) / 1000

/** A WeakMap entry: its slot in V8's table of weak pairs. */
const WEAK_ENTRY_BYTES = 48

/**
 * A cache by the identity of its keys, which hold its entries alive: what is worked out once
 * for an object (a workflow's list of steps, a store) goes with it. Its bytes are those of the
 * entries stored since it was last emptied: entries whose keys were collected stay counted
 * until then, and the memory budget empties every cache before it refuses work.
 */
export class WeakCache<K extends object, V> {
  private map = new WeakMap<K, V>()
  private stored = 0
  private held = 0
  private hits = 0
  private misses = 0
  private off = false

  constructor(
    readonly name: string,
    /** The value's bytes beside its entry; 0 by default. */
    private readonly sizeOf?: (value: V) => number
  ) {
    register(name, {
      stats: () => ({
        name,
        kind: 'weak',
        entries: this.stored,
        bytes: this.held,
        maxEntries: null,
        maxBytes: null,
        hits: this.hits,
        misses: this.misses,
        hitRate: hitRate(this.hits, this.misses),
      }),
      clear: () => this.clear(),
      release: (scope) => this.delete(scope as K),
      turn: (on) => {
        this.off = !on
        if (!on) this.clear()
      },
    })
  }

  private bytesOf(value: V) {
    return WEAK_ENTRY_BYTES + (this.sizeOf?.(value) ?? 0)
  }

  get(key: K): V | undefined {
    if (!enabled || this.off) return undefined
    const value = this.map.get(key)
    if (value === undefined) this.misses++
    else this.hits++
    return value
  }

  set(key: K, value: V): V {
    if (!enabled || this.off) return value
    const before = this.map.get(key)
    if (before === undefined) this.stored++
    else this.held -= this.bytesOf(before)
    this.held += this.bytesOf(value)
    this.map.set(key, value)
    return value
  }

  memo(key: K, make: () => V): V {
    const found = this.get(key)
    return found !== undefined ? found : this.set(key, make())
  }

  delete(key: K) {
    const value = this.map.get(key)
    if (value === undefined || !this.map.delete(key)) return
    this.stored = Math.max(0, this.stored - 1)
    this.held = Math.max(0, this.held - this.bytesOf(value))
  }

  clear() {
    this.map = new WeakMap()
    this.stored = 0
    this.held = 0
  }
}

/** A number per object, for caches whose keys are texts that name an object. */
const identities = new WeakMap<object, number>()
let lastIdentity = 0
export function identityOf(object: object): number {
  let id = identities.get(object)
  if (id === undefined) identities.set(object, (id = ++lastIdentity))
  return id
}

/**
 * An object that stands for `owner` and `by` together (a store and a route, a route and its
 * schema), the same every time: a cache part, so that a lookup needs no key made of both.
 */
const partTokens = new WeakMap<object, Map<unknown, object>>()
export function partOf(owner: object, by: unknown): object {
  let tokens = partTokens.get(owner)
  if (!tokens) partTokens.set(owner, (tokens = new Map()))
  let token = tokens.get(by)
  if (!token) tokens.set(by, (token = {}))
  return token
}

applyCachesSetting(process.env.NOVU_MOCK_CACHES ?? 'on')
