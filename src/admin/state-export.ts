import type { Context } from 'hono'
import { JSON_CONTENT_TYPE } from '../http/respond.js'
import type { Environment } from '../tenancy/environment.js'

/** Records per chunk, and bytes a chunk may reach before it is sent. */
const CHUNK_BYTES = 64 * 1024

/** A topic with its subscriptions in full (the record's `subscribers` is then only informative). */
const topicRecord =
  (env: Environment) => (topic: ReturnType<Environment['topics']['all']>[number]) => ({
    ...topic,
    subscriptions: env.topics.subscriptions.ofTopic(topic._id).map((s) => ({
      _id: s._id,
      identifier: s.identifier,
      subscriberId: s.externalSubscriberId,
      ...(s.name !== undefined ? { name: s.name } : {}),
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    })),
  })

/** An environment's records in the scenario record format (feed them back with PUT, or into a scenario's `data`), kind by kind. */
function exportedRecords(env: Environment): [string, readonly unknown[], (r: never) => unknown][] {
  const message = (m: ReturnType<Environment['messages']['all']>[number]) => ({
    ...m,
    subscriberId: m.subscriber.subscriberId,
    workflowId: m._templateId,
  })
  return [
    ['notificationGroups', env.groups.list(), (r) => r],
    ['subscribers', env.subscribers.all(), (r) => r],
    // A copy: the store's own array grows with later writes.
    ['topics', env.topics.all().slice(), topicRecord(env) as (r: never) => unknown],
    ['workflows', env.workflows.all(), (r) => r],
    ['messages', env.messages.all(), message as (r: never) => unknown],
    ['integrations', env.integrations.all(), (r) => r],
    ['notifications', env.notifications.all(), (r) => r],
  ]
}

/**
 * The export as `JSON.stringify` would write it, sent in chunks: an
 * environment can hold more than one string can (V8 caps strings near 512 MB), and the whole
 * text would double the memory the environment takes. The record lists are taken when the
 * request arrives; each record is written when its chunk is.
 */
export function streamEnvironment(c: Context, env: Environment): Response {
  const kinds = exportedRecords(env)
  const encoder = new TextEncoder()
  let kind = 0
  let index = 0
  let opened = false
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = ''
      while (chunk.length < CHUNK_BYTES) {
        const current = kinds[kind]
        if (!current) {
          controller.enqueue(encoder.encode(`${chunk}}`))
          controller.close()
          return
        }
        const [name, records, shape] = current
        if (!opened) {
          chunk += `${kind === 0 ? '{' : ','}${JSON.stringify(name)}:[`
          opened = true
        }
        if (index < records.length) {
          chunk += (index > 0 ? ',' : '') + JSON.stringify(shape(records[index++] as never))
          continue
        }
        chunk += ']'
        kind++
        index = 0
        opened = false
      }
      controller.enqueue(encoder.encode(chunk))
    },
  })
  return c.body(stream, 200, { 'content-type': JSON_CONTENT_TYPE })
}
