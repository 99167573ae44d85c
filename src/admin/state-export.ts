import type { Context } from 'hono'
import { JSON_CONTENT_TYPE } from '../http/respond.js'
import type { Environment } from '../tenancy/environment.js'
import { isObj } from '../objects.js'

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

const copy = <T extends object>(record: T): T => ({ ...record })

type Notification = ReturnType<Environment['notifications']['all']>[number]

/** A notification whose jobs the worker goes on changing in place (status, times, details). */
const notificationRecord = (n: Notification): Notification => ({
  ...n,
  jobs: n.jobs.map((job) => ({ ...job, executionDetails: job.executionDetails.slice() })),
})

type Subscriber = ReturnType<Environment['subscribers']['all']>[number]

/** A subscriber whose channel credentials an upsert sets in place. */
const subscriberRecord = (s: Subscriber): Subscriber =>
  Array.isArray(s.channels)
    ? { ...s, channels: s.channels.map((c) => (isObj(c) ? { ...c } : c)) }
    : { ...s }

/** A preference as a scenario declares it: its subscriber and workflow by their public names. */
const preferenceRecord = (p: ReturnType<Environment['preferences']['all']>[number]) => {
  const { _subscriberId, _templateId, ...rest } = p
  return {
    ...rest,
    channels: { ...p.channels },
    ...(_templateId ? { workflowId: _templateId } : {}),
  }
}

/**
 * An environment's records in the scenario record format (feed them back with PUT, or into a
 * scenario's `data`), kind by kind, as they are at this instant. The stores change records in
 * place (a delay's job completes, a message is deleted, a subscriber renamed), and the export is
 * written chunk by chunk while other requests and the clock run: so each record is copied now,
 * down to the parts changed in place, and the export holds one point in time (a completed job
 * never without its message). The copies share every part nothing changes in place.
 */
function exportedRecords(env: Environment): [string, readonly unknown[]][] {
  const message = (m: ReturnType<Environment['messages']['all']>[number]) => ({
    ...m,
    subscriberId: m.subscriber.subscriberId,
    workflowId: m._templateId,
  })
  return [
    ['notificationGroups', env.groups.list().map(copy)],
    ['subscribers', env.subscribers.all().map(subscriberRecord)],
    ['topics', env.topics.all().map(topicRecord(env))],
    ['workflows', env.workflows.all().map(copy)],
    ['messages', env.messages.all().map(message)],
    ['integrations', env.integrations.all().map(copy)],
    ['notifications', env.notifications.all().map(notificationRecord)],
    // Those of a deleted subscriber name nobody an import could find.
    [
      'preferences',
      env.preferences
        .all()
        .filter((p) => env.subscribers.byId(p._subscriberId))
        .map(preferenceRecord),
    ],
    ['tenants', env.tenants.all().map(copy)],
  ]
}

/**
 * The export as `JSON.stringify` would write it, sent in chunks: an
 * environment can hold more than one string can (V8 caps strings near 512 MB), and the whole
 * text would double the memory the environment takes. The records are copied when the
 * request arrives (see exportedRecords); each is written when its chunk is.
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
        const [name, records] = current
        if (!opened) {
          chunk += `${kind === 0 ? '{' : ','}${JSON.stringify(name)}:[`
          opened = true
        }
        if (index < records.length) {
          chunk += (index > 0 ? ',' : '') + JSON.stringify(records[index++])
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
