/**
 * The answers of a Novu server as scenario records (src/scenarios/schema.ts): the fields the
 * mock keeps, in the shape its loader builds them from, with their ids and times.
 */
import { isObj, type Obj } from '../objects.js'
import { SUBSCRIBER_FIELDS } from '../resources/subscribers/subscribers.store.js'

const pick = (from: Obj, fields: readonly string[]): Obj => {
  const out: Obj = {}
  for (const field of fields) if (from[field] !== undefined) out[field] = from[field]
  return out
}

export const groupRecord = (group: Obj): Obj =>
  pick(group, ['_id', 'name', '_parentId', 'createdAt', 'updatedAt'])

/** What the loader keeps of a subscriber; channel credentials stay behind (device tokens, webhooks). */
const SUBSCRIBER_RECORD = ['_id', 'subscriberId', ...SUBSCRIBER_FIELDS, 'createdAt', 'updatedAt']

export const subscriberRecord = (subscriber: Obj): Obj => pick(subscriber, SUBSCRIBER_RECORD)

export const tenantRecord = (tenant: Obj): Obj =>
  pick(tenant, ['_id', 'identifier', 'name', 'data', 'createdAt', 'updatedAt'])

/** A 2024-10 topic: its subscribers as the list names them (subscriberIds). */
export const topicRecordV1 = (topic: Obj): Obj =>
  pick(topic, ['_id', 'key', 'name', 'subscribers', 'createdAt', 'updatedAt'])

/** A 2026-08 topic with its subscriptions in full, oldest first (the list gives newest first). */
export function topicRecordV2(topic: Obj, subscriptions: unknown[]): Obj {
  const rows = subscriptions.filter(isObj).map((s) => ({
    ...pick(s, ['_id', 'identifier']),
    subscriberId: isObj(s.subscriber) ? s.subscriber.subscriberId : s.subscriberId,
    ...pick(s, ['createdAt', 'updatedAt']),
  }))
  return {
    ...pick(topic, ['_id', 'key', 'name', 'createdAt', 'updatedAt']),
    subscriptions: rows.reverse(),
  }
}

/** Fields a v1 read adds to the stored document: Mongoose's `id` virtual, the populated group. */
const RENDERED_ONLY = new Set(['id', 'notificationGroup', 'workflowIntegrationStatus'])

function withoutRendered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRendered)
  if (!isObj(value)) return value
  const out: Obj = {}
  for (const [key, inner] of Object.entries(value))
    if (!RENDERED_ONLY.has(key)) out[key] = withoutRendered(inner)
  return out
}

/** A workflow as GET /v1/workflows/{id} answers it: the whole document, loaded as it is. */
export function workflowDocument(answer: Obj): Obj {
  const { _environmentId: _e, _organizationId: _o, ...rest } = withoutRendered(answer) as Obj
  return rest
}

const STEP_FIELDS = ['_id', 'stepId', 'name', 'type', 'controlValues', 'providerOverrides']

/** A workflow as GET /v2/workflows/{id} answers it, in the POST /v2/workflows shape with its ids. */
export function workflowV2Record(answer: Obj): Obj {
  const preferences = isObj(answer.preferences) ? answer.preferences : undefined
  const steps = Array.isArray(answer.steps) ? answer.steps.filter(isObj) : []
  return {
    ...pick(answer, ['_id', 'workflowId', 'name', 'description', 'tags', 'active']),
    ...pick(answer, ['payloadSchema', 'validatePayload', 'severity']),
    ...(preferences
      ? {
          preferences: {
            ...(isObj(preferences.user) ? { user: preferences.user } : {}),
            ...(isObj(preferences.default) ? { workflow: preferences.default } : {}),
          },
        }
      : {}),
    steps: steps.map((step) => pick(step, STEP_FIELDS)),
    ...pick(answer, ['createdAt', 'updatedAt']),
  }
}
