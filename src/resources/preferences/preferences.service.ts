import { CommandValidationError, httpError, type ApiError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { parseSlugId } from '../workflows-v2/slug-id.js'
import { emitPreferenceUpdated } from './preference-event.js'
import { PREFERENCE_BYTES, type ChannelFlags, type Preference } from './preferences.store.js'

/** A subscriber the reads can see (2024-10 keeps soft-deleted ones stored). */
export function liveSubscriber(env: Environment, subscriberId: string): Subscriber | undefined {
  const found = env.subscribers.get(subscriberId)
  return found && !found.deleted ? found : undefined
}

/** The live subscriber, or the use case's own unknown-subscriber error. */
export function requireSubscriber(
  env: Environment,
  subscriberId: string,
  unknown: (subscriberId: string) => ApiError
): Subscriber {
  const subscriber = liveSubscriber(env, subscriberId)
  if (!subscriber) throw unknown(subscriberId)
  return subscriber
}

/** The workflow a 2025 preference write names: its internal id, trigger identifier or slug. */
export function workflowNamed(env: Environment, named: string): Workflow | undefined {
  return env.workflows.get(parseSlugId(named)) ?? env.workflows.byIdentifier(named)
}

/** The workflow a 2025 write names; since 2025 a critical one is not the subscriber's to change. */
export function writableWorkflow(env: Environment, named: string): Workflow {
  const workflow = workflowNamed(env, named)
  if (!workflow) throw env.generation.preferences.workflowUnknown(named)
  if (workflow.critical)
    throw httpError(400, `Critical workflow with id: ${named} can not be updated`)
  return workflow
}

/**
 * Creates or changes the subscriber's record (global without a workflow): `enabled` when given,
 * the channels given laid over the stored ones. A new record is counted by the memory budget.
 */
/** Writes the subscriber's preference (global, or one workflow's) and tells the webhooks. */
export function savePreference(
  env: Environment,
  subscriber: Subscriber,
  workflowId: string | undefined,
  change: { enabled?: boolean; channels?: ChannelFlags }
): Preference {
  const saved = writePreference(env, subscriber, workflowId, change)
  emitPreferenceUpdated(env, subscriber, workflowId)
  return saved
}

function writePreference(
  env: Environment,
  subscriber: Subscriber,
  workflowId: string | undefined,
  change: { enabled?: boolean; channels?: ChannelFlags }
): Preference {
  const store = env.preferences
  const at = env.now()
  const stored = workflowId
    ? store.forWorkflow(subscriber._id, workflowId)
    : store.global(subscriber._id)
  if (stored) {
    if (change.enabled !== undefined) stored.enabled = change.enabled
    Object.assign(stored.channels, change.channels ?? {})
    stored.updatedAt = at
    store.touch()
    return stored
  }
  env.memory.admit(PREFERENCE_BYTES, 'this preference')
  const created = store.put({
    _id: env.newId(),
    _subscriberId: subscriber._id,
    subscriberId: subscriber.subscriberId,
    ...(workflowId ? { _templateId: workflowId } : {}),
    enabled: change.enabled ?? true,
    channels: { ...(change.channels ?? {}) },
    createdAt: at,
    updatedAt: at,
  })
  env.memory.grow(PREFERENCE_BYTES)
  return created
}

/** The 2025 command's check of each channel value it was given. */
export function channelsOf(
  env: Environment,
  sent: Record<string, unknown> | undefined
): ChannelFlags {
  const out: ChannelFlags = {}
  if (!sent || Array.isArray(sent)) return out
  const bad = []
  for (const channel of env.generation.preferences.channels) {
    const value = sent[channel]
    if (value === undefined) continue
    if (typeof value === 'boolean') out[channel] = value
    else bad.push({ property: channel, messages: [`${channel} must be a boolean value`], value })
  }
  if (bad.length) throw new CommandValidationError('UpdatePreferencesCommand', bad)
  return out
}
