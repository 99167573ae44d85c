import type { z } from 'zod'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { BUILT_BYTES } from '../../memory/estimate.js'
import type { Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import { subscriberDocument } from './subscribers.seed.js'
import { SUBSCRIBER_FIELDS, type Subscriber } from './subscribers.store.js'

/**
 * POST /v1/subscribers/bulk (`@novu/node` `bulkCreate`, `@novu/api` `subscribers.createBulk`):
 * upstream's ordered bulk upsert, one `$set` per item. Up to 500 items; `channels` are written
 * as sent (no integration lookup), unlike the single create. No generation has a v2 bulk route.
 */

/** What a bulk item sets (2026's repository keeps exactly these; 2024's `$set` of every field is narrowed to them too). */
const BULK_FIELDS: readonly string[] = [...SUBSCRIBER_FIELDS, 'channels']

function fieldsOf(item: Obj): Obj {
  const out: Obj = {}
  for (const name of BULK_FIELDS) if (item[name] !== undefined) out[name] = item[name]
  return out
}

function upsert(env: Environment, item: Obj, at: string): 'created' | 'updated' {
  const subscriberId = String(item.subscriberId)
  const fields = fieldsOf(item)
  const stored = env.subscribers.get(subscriberId)
  if (stored) {
    // 2024-10's soft-deleted subscriber is the same document, brought back.
    Object.assign(stored, fields, { deleted: false, updatedAt: at })
    if (!stored.deleted) delete (stored as unknown as Obj).deletedAt
    env.subscribers.touch()
    return 'updated'
  }
  const { channels, ...rest } = fields
  const created = subscriberDocument(env, {
    _id: env.newId(),
    subscriberId,
    ...(rest as Partial<Subscriber>),
    createdAt: at,
  })
  if (Array.isArray(channels)) created.channels = channels
  env.subscribers.add(created)
  return 'created'
}

export const subscriberBulkRoutes = [
  defineRoute<Record<string, string>, Record<string, unknown>, { subscribers: Obj[] }>({
    method: 'POST',
    path: '/v1/subscribers/bulk',
    summary: 'Create or update up to 500 subscribers in one ordered upsert',
    tags: ['Subscribers'],
    auth: 'apiKey',
    body: (g) => g.subscriberChannels.bulkBody as z.ZodType<{ subscribers: Obj[] }>,
    responses: {
      201: { description: '{updated, created, failed}, each a list of {subscriberId}, in data' },
    },
    handler(c, { env, body }) {
      const refused = env.generation.subscriberChannels.bulkTooMany(body.subscribers.length)
      if (refused) throw refused
      // The request's estimate counted one subscriber; the others are counted here.
      const more = (body.subscribers.length - 1) * BUILT_BYTES.subscribers
      env.memory.admit(more, 'the subscribers this request creates')
      const at = env.now()
      const answer = {
        updated: [] as { subscriberId: string }[],
        created: [] as { subscriberId: string }[],
        failed: [],
      }
      for (const item of body.subscribers)
        answer[upsert(env, item, at)].push({ subscriberId: String(item.subscriberId) })
      env.memory.grow(more)
      return json(c, 201, { data: answer })
    },
  }),
]
