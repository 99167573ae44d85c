/**
 * One reader per kind of record: each pages through its list on the server's routes for the
 * generation it answers as and returns scenario records.
 */
import type { GenerationName } from '../generations/generation.js'
import { isObj, type Obj } from '../objects.js'
import { CaptureError, notUnderstood, type CaptureClient } from './client.js'
import { cursorPages, numberedPages, offsetPages, type ListOptions } from './paging.js'
import {
  groupRecord,
  subscriberRecord,
  tenantRecord,
  topicRecordV1,
  topicRecordV2,
  workflowDocument,
  workflowV2Record,
} from './records.js'

export interface ReadContext {
  client: CaptureClient
  generation: GenerationName
  /** Progress of one kind: its name, the count so far and the total when known. */
  progress(kind: string, count: number, total?: number): void
}

const objects = (path: string, items: unknown[]): Obj[] => {
  if (!items.every(isObj)) throw notUnderstood(path, 'a list of objects')
  return items
}

const listing = (ctx: ReadContext, kind: string, extra: ListOptions = {}): ListOptions => ({
  ...extra,
  onProgress: (count, total) => ctx.progress(kind, count, total),
})

/**
 * Records in the order they were created (the /v2 lists give the newest first): the loader
 * builds them in file order, and the lists of the mock loaded with them answer in that order.
 */
function oldestFirst(records: Obj[]): Obj[] {
  const key = (r: Obj) => `${String(r.createdAt ?? '')}\u0000${String(r._id ?? '')}`
  return [...records].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** The `data` object of a single-record answer. */
async function one(client: CaptureClient, path: string): Promise<Obj> {
  const { body } = await client.get(path)
  const data = isObj(body) ? body.data : undefined
  if (!isObj(data)) throw notUnderstood(path, 'a record in "data"')
  return data
}

export async function readGroups(ctx: ReadContext): Promise<Obj[]> {
  const path = '/v1/notification-groups'
  const { body } = await ctx.client.get(path)
  const data = isObj(body) ? body.data : undefined
  if (!Array.isArray(data)) throw notUnderstood(path, 'a list of notification groups')
  ctx.progress('notification groups', data.length, data.length)
  return objects(path, data).map(groupRecord)
}

/**
 * The v1 list (every workflow on 2024-10; since late 2024 all but the new dashboard's) read one
 * by one for their whole documents; then, where /v2 exists, the dashboard's workflows it adds.
 */
export async function readWorkflows(ctx: ReadContext): Promise<Obj[]> {
  const kind = 'workflows'
  const listed = objects('/v1/workflows', await numberedPages(ctx.client, '/v1/workflows', 'limit'))
  const out: Obj[] = []
  const seen = new Set<string>()
  let total = listed.length
  for (const workflow of listed) {
    const id = String(workflow._id)
    seen.add(id)
    out.push(workflowDocument(await one(ctx.client, `/v1/workflows/${encodeURIComponent(id)}`)))
    ctx.progress(kind, out.length, total)
  }
  if (ctx.generation === '2024-10') return out
  const all = objects('/v2/workflows', await offsetPages(ctx.client, '/v2/workflows', 'workflows'))
  const added = all.filter((w) => !seen.has(String(w._id)))
  total += added.length
  for (const workflow of added) {
    const path = `/v2/workflows/${encodeURIComponent(String(workflow._id))}`
    out.push(workflowV2Record(await one(ctx.client, path)))
    ctx.progress(kind, out.length, total)
  }
  return out
}

export async function readTopics(ctx: ReadContext): Promise<Obj[]> {
  const kind = 'topics'
  if (ctx.generation === '2024-10')
    return objects(
      '/v1/topics',
      // The 2024-10 server refuses pages of more than 10 topics.
      await numberedPages(
        ctx.client,
        '/v1/topics',
        'pageSize',
        listing(ctx, kind, { pageSize: 10 })
      )
    ).map(topicRecordV1)
  const topics = objects('/v2/topics', await cursorPages(ctx.client, '/v2/topics'))
  const out: Obj[] = []
  for (const topic of topics) {
    const path = `/v2/topics/${encodeURIComponent(String(topic.key))}/subscriptions`
    out.push(topicRecordV2(topic, objects(path, await cursorPages(ctx.client, path))))
    ctx.progress(kind, out.length, topics.length)
  }
  return out
}

export async function readSubscribers(ctx: ReadContext, max?: number): Promise<Obj[]> {
  const options = listing(ctx, 'subscribers', max === undefined ? {} : { max })
  // Oldest first on either server (/v2 lists the newest first unless asked): --subscribers N
  // keeps the same N.
  const path = ctx.generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
  const records =
    ctx.generation === '2024-10'
      ? await numberedPages(ctx.client, path, 'limit', options)
      : await cursorPages(ctx.client, `${path}?orderDirection=ASC`, options)
  return oldestFirst(objects(path, records)).map(subscriberRecord)
}

/** Tenants, where the server serves them (a server without the route: none, not an error). */
export async function readTenants(ctx: ReadContext): Promise<Obj[] | undefined> {
  try {
    const records = await numberedPages(ctx.client, '/v1/tenants', 'limit', listing(ctx, 'tenants'))
    return objects('/v1/tenants', records).map(tenantRecord)
  } catch (error) {
    if (error instanceof CaptureError && error.kind === 'not-found') return undefined
    throw error
  }
}
