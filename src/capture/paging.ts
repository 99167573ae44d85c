/**
 * Every page of a list, in the three ways Novu pages: numbered pages (the /v1 lists), offsets
 * (/v2/workflows) and cursors (/v2/subscribers, a topic's subscriptions). Each stops at the end
 * the answer announces, at an empty page, or at `max` records.
 */
import { notUnderstood, type CaptureClient } from './client.js'
import { isObj } from '../objects.js'

/** Upstream's largest page on these lists. */
const PAGE_SIZE = 100
/** A server that never says "no more" stops here rather than looping. */
const MAX_PAGES = 100_000

export interface ListOptions {
  /** Stop after this many records. */
  max?: number
  /** Records per page where the route's largest is less than PAGE_SIZE (2024-10 topics: 10). */
  pageSize?: number
  /** Told the count so far, and the total when the answer gives one. */
  onProgress?: (count: number, total?: number) => void
}

const join = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`

function dataOf(path: string, body: unknown, key?: string): unknown[] {
  const outer = isObj(body) ? body.data : undefined
  const list = key ? (isObj(outer) ? outer[key] : undefined) : outer
  if (!Array.isArray(list)) throw notUnderstood(path, `a page with a "data" list`)
  return list
}

const totalOf = (body: unknown, key?: string): number | undefined => {
  const holder = key && isObj(body) ? body.data : body
  const total = isObj(holder) ? holder.totalCount : undefined
  return typeof total === 'number' ? total : undefined
}

async function collect(
  options: ListOptions,
  fetchPage: (index: number) => Promise<{ items: unknown[]; last: boolean; total?: number }>
): Promise<unknown[]> {
  const out: unknown[] = []
  const max = options.max ?? Infinity
  for (let index = 0; index < MAX_PAGES && out.length < max; index++) {
    const { items, last, total } = await fetchPage(index)
    out.push(...items.slice(0, max - out.length))
    options.onProgress?.(out.length, total === undefined ? undefined : Math.min(total, max))
    if (last || items.length === 0) break
  }
  return out
}

/** `?page=0,1,…` with the size in `sizeParam` (`limit`, or `pageSize` for topics). */
export function numberedPages(
  client: CaptureClient,
  path: string,
  sizeParam: 'limit' | 'pageSize',
  options: ListOptions = {}
): Promise<unknown[]> {
  let seen = 0
  const size = options.pageSize ?? PAGE_SIZE
  return collect(options, async (page) => {
    const url = join(path, `page=${page}&${sizeParam}=${size}`)
    const { body } = await client.get(url)
    const items = dataOf(url, body)
    seen += items.length
    const total = totalOf(body)
    const hasMore = isObj(body) && typeof body.hasMore === 'boolean' ? body.hasMore : undefined
    const last = items.length < size || hasMore === false || (total !== undefined && seen >= total)
    return { items, last, total }
  })
}

/** `?offset=…&limit=…`, with the list under `data[key]` (/v2/workflows: `data.workflows`). */
export function offsetPages(
  client: CaptureClient,
  path: string,
  key: string,
  options: ListOptions = {}
): Promise<unknown[]> {
  let seen = 0
  return collect(options, async (page) => {
    const url = join(path, `offset=${page * PAGE_SIZE}&limit=${PAGE_SIZE}`)
    const { body } = await client.get(url)
    const items = dataOf(url, body, key)
    seen += items.length
    const total = totalOf(body, key)
    return {
      items,
      last: items.length < PAGE_SIZE || (total !== undefined && seen >= total),
      total,
    }
  })
}

/** `?limit=…&after=<next>` until `next` is null. */
export function cursorPages(
  client: CaptureClient,
  path: string,
  options: ListOptions = {}
): Promise<unknown[]> {
  let after: string | undefined
  return collect(options, async () => {
    const url = join(
      path,
      `limit=${PAGE_SIZE}${after ? `&after=${encodeURIComponent(after)}` : ''}`
    )
    const { body } = await client.get(url)
    const items = dataOf(url, body)
    const next = isObj(body) ? body.next : undefined
    after = typeof next === 'string' && next !== '' ? next : undefined
    return { items, last: after === undefined, total: totalOf(body) }
  })
}
