/**
 * Upstream's cursor pagination (`findWithCursorBasedPagination` in libs/dal's base repository),
 * replayed on an in-memory collection: sort on a field then `_id`, fetch `limit + 1` items past
 * or before a cursor document, and answer the `_id`s of the page's ends as `next`/`previous`.
 * Comparisons follow MongoDB's: values of different BSON types never compare as less, greater
 * or equal, and a missing field sorts (and equals) as null.
 */

type Direction = 'ASC' | 'DESC'

/** `totalCount` stops here; upstream counts up to one more to tell that it stopped. */
const COUNT_CAP = 50_000

export interface CursorRequest<T> {
  limit: number
  direction: Direction
  /** The field to sort on; `_id` breaks ties (and is the cursor). */
  orderBy: string
  includeCursor: boolean
  /** The cursor document, already found by its id. */
  after?: T
  before?: T
}

export interface CursorPage<T> {
  data: T[]
  next: string | null
  previous: string | null
  totalCount: number
  totalCountCapped: boolean
}

/** A collection sorted by `_id`, ascending, addressed by position. */
export interface IdOrdered<T> {
  readonly size: number
  at(index: number): T
  /** The first position whose id is not below `id`. */
  lowerBound(id: string): number
  /** The first position whose id is above `id`. */
  upperBound(id: string): number
}

/** A sorted array of ids with binary-search insert, remove and bounds. */
export class SortedIds {
  private readonly ids: string[] = []

  get size() {
    return this.ids.length
  }

  at(index: number): string {
    return this.ids[index] as string
  }

  lowerBound(id: string): number {
    let lo = 0
    let hi = this.ids.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.ids[mid] as string) < id) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  upperBound(id: string): number {
    let lo = 0
    let hi = this.ids.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.ids[mid] as string) <= id) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  insert(id: string) {
    const at = this.lowerBound(id)
    // Generated ids grow, so an insert is nearly always an append.
    if (at === this.ids.length) this.ids.push(id)
    else this.ids.splice(at, 0, id)
  }

  remove(id: string) {
    const at = this.lowerBound(id)
    if (this.ids[at] === id) this.ids.splice(at, 1)
  }

  has(id: string) {
    return this.ids[this.lowerBound(id)] === id
  }

  /** The ids as an ordered view of their documents. */
  view<T>(get: (id: string) => T): IdOrdered<T> {
    const ids = this.ids
    return {
      get size() {
        return ids.length
      },
      at: (index) => get(ids[index] as string),
      lowerBound: (id) => this.lowerBound(id),
      upperBound: (id) => this.upperBound(id),
    }
  }
}

// MongoDB's order of BSON types, for the ones a document here can hold.
function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 1
  if (typeof value === 'number') return 2
  if (typeof value === 'string') return 3
  if (Array.isArray(value)) return 5
  if (typeof value === 'boolean') return 8
  return 4
}

/** Strings compare by UTF-8 bytes in MongoDB, which is code point order (not UTF-16's). */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number
    const y = b.codePointAt(i) as number
    if (x !== y) return x < y ? -1 : 1
    if (x > 0xffff) i++
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1
}

/** The sort order: type first, then the value; documents and arrays tie (the id decides). */
function sortCompare(a: unknown, b: unknown): number {
  const ra = typeRank(a)
  const rb = typeRank(b)
  if (ra !== rb) return ra - rb
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b)
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  return 0
}

/** A query comparison: undefined when the types differ, as `$lt` and friends then never match. */
function queryCompare(a: unknown, b: unknown): number | undefined {
  return typeRank(a) === typeRank(b) ? sortCompare(a, b) : undefined
}

type Op = '$lt' | '$lte' | '$gt' | '$gte' | '$eq'
function holds(op: Op, a: unknown, b: unknown): boolean {
  const c = queryCompare(a, b)
  if (c === undefined) return false
  switch (op) {
    case '$lt':
      return c < 0
    case '$lte':
      return c <= 0
    case '$gt':
      return c > 0
    case '$gte':
      return c >= 0
    case '$eq':
      return c === 0
  }
}

/** Documents the pages have read, every page together: tests bound a page's cost by it. */
let documentsRead = 0
export const cursorDocumentsRead = () => documentsRead

/** What MongoDB's `cursor.limit(n)` fetches: 0 is no limit, a negative n is |n|. */
function fetchCount(n: number): number {
  const whole = Math.trunc(n)
  return whole === 0 || !Number.isFinite(whole) ? Infinity : Math.abs(whole)
}

/**
 * One page. `source` is the whole collection by `_id`; `matches` the query's filters (none: every
 * document); `field` reads a document's sort value. Without filters and sorted on `_id`, a page
 * costs O(log n + limit); otherwise the matching documents are sorted first.
 */
export function cursorPage<T extends { _id: string }>(
  source: IdOrdered<T>,
  matches: ((doc: T) => boolean) | undefined,
  field: (doc: T, name: string) => unknown,
  request: CursorRequest<T>
): CursorPage<T> {
  const { limit, orderBy, includeCursor: include, after, before } = request
  const isDesc = request.direction === 'DESC'
  const value = (doc: T) => (orderBy === '_id' ? doc._id : field(doc, orderBy))
  const wanted = fetchCount(limit + 1)

  let total: number
  /** Up to `wanted` documents, in the order upstream fetches them. */
  let raw: T[]
  /** Whether the base query has a document strictly before `doc` (or after it), in page order. */
  let precedes: (doc: T) => boolean
  let follows: (doc: T) => boolean

  if (orderBy === '_id' && !matches) {
    const n = source.size
    total = n
    const collect = (from: number, step: 1 | -1) => {
      const out: T[] = []
      for (let i = from; i >= 0 && i < n && out.length < wanted; i += step) out.push(source.at(i))
      documentsRead += out.length
      return out
    }
    // In page order, DESC walks the ascending ids backwards.
    const forward: 1 | -1 = isDesc ? -1 : 1
    if (after) {
      const start = isDesc
        ? (include ? source.upperBound(after._id) : source.lowerBound(after._id)) - 1
        : include
          ? source.lowerBound(after._id)
          : source.upperBound(after._id)
      raw = collect(start, forward)
    } else if (before) {
      const start = isDesc
        ? include
          ? source.lowerBound(before._id)
          : source.upperBound(before._id)
        : (include ? source.upperBound(before._id) : source.lowerBound(before._id)) - 1
      raw = collect(start, -forward as 1 | -1)
    } else raw = collect(isDesc ? n - 1 : 0, forward)
    precedes = (doc) => (isDesc ? source.upperBound(doc._id) < n : source.lowerBound(doc._id) > 0)
    follows = (doc) => (isDesc ? source.lowerBound(doc._id) > 0 : source.upperBound(doc._id) < n)
  } else {
    const base: T[] = []
    documentsRead += source.size
    for (let i = 0; i < source.size; i++) {
      const doc = source.at(i)
      if (!matches || matches(doc)) base.push(doc)
    }
    base.sort((a, b) => sortCompare(value(a), value(b)) || (a._id < b._id ? -1 : 1))
    if (isDesc) base.reverse()
    total = base.length
    /** `doc` lies past `ref` in page order (or before it, with `backwards`). */
    const beyond = (doc: T, ref: T, backwards: boolean, inclusive: boolean) => {
      const later = isDesc !== backwards
      const strict: Op = later ? '$lt' : '$gt'
      const loose: Op = later ? '$lte' : '$gte'
      const v = value(doc)
      const r = value(ref)
      return (
        holds(inclusive ? loose : strict, v, r) ||
        (holds('$eq', v, r) && holds(inclusive ? loose : strict, doc._id, ref._id))
      )
    }
    const take = (docs: Iterable<T>, keep: (doc: T) => boolean) => {
      const out: T[] = []
      for (const doc of docs) {
        if (out.length >= wanted) break
        if (keep(doc)) out.push(doc)
      }
      return out
    }
    if (after) raw = take(base, (doc) => beyond(doc, after, false, include))
    else if (before) raw = take(base.slice().reverse(), (doc) => beyond(doc, before, true, include))
    else raw = base.slice(0, Math.min(wanted, base.length))
    precedes = (doc) => base.some((other) => beyond(other, doc, true, false))
    follows = (doc) => base.some((other) => beyond(other, doc, false, false))
  }

  const capped = total > COUNT_CAP
  const totalCount = capped ? COUNT_CAP : total
  const hasExtra = raw.length > limit
  let page: T[]
  if (before) {
    raw.reverse()
    page = hasExtra ? raw.slice(1, limit + 1) : raw.slice(0, limit)
  } else page = raw.slice(0, limit)
  if (page.length === 0)
    return { data: [], next: null, previous: null, totalCount, totalCountCapped: capped }

  const first = page[0] as T
  const last = page[page.length - 1] as T
  let next: string | null = null
  let previous: string | null = null
  if (hasExtra) {
    if (before) previous = first._id
    else next = last._id
  }
  if (before) {
    if (follows(last)) next = last._id
  } else if (precedes(first)) previous = first._id
  return { data: page, next, previous, totalCount, totalCountCapped: capped }
}
