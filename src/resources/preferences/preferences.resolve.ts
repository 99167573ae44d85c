import { isObj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { flagOff } from './preferences.generations.js'
import type { ChannelFlags } from './preferences.store.js'

/** A workflow's preference for one subscriber, each layer laid over the one before. */
export interface Resolved {
  enabled: boolean
  channels: ChannelFlags
  /** The channels a subscriber's record set. */
  bySubscriber: Set<string>
  /** When the subscriber's record for this workflow was last written. */
  updatedAt?: string
}

/** 2024-10 with its preference flag off: reads answer 400, and delivery reads the global record too. */
const flagIsOff = (env: Environment) =>
  env.generation.preferences.gatedByFlag && !env.flags.IS_WORKFLOW_PREFERENCES_ENABLED

/** Throws 2024-10's 400 where a preference read meets the flag off. */
export function assertPreferencesEnabled(env: Environment) {
  if (flagIsOff(env)) throw flagOff(env)
}

/**
 * Since 2025 a workflow's preferences carry `all.readOnly`: what the user set, else the
 * resource default, else (a document from before them) its `critical` flag.
 */
export function isReadOnly(workflow: Workflow): boolean {
  const own = isObj(workflow.userPreferences)
    ? workflow.userPreferences
    : isObj(workflow.defaultPreferences)
      ? workflow.defaultPreferences
      : undefined
  if (!own) return workflow.critical === true
  return isObj(own.all) && own.all.readOnly === true
}

/** The channel types of the workflow's active steps, in the generation's channel order. */
export function activeChannels(env: Environment, workflow: Workflow): string[] {
  const used = new Set<string>()
  for (const step of workflow.steps ?? []) {
    if (step.active === false) continue
    const type = isObj(step.template) ? step.template.type : undefined
    if (typeof type === 'string') used.add(type)
  }
  return env.generation.preferences.channels.filter((channel) => used.has(channel))
}

/** The channel types used by the environment's active workflows. */
export function environmentChannels(env: Environment): string[] {
  const used = new Set(
    env.workflows
      .live()
      .filter((w) => w.active)
      .flatMap((w) => activeChannels(env, w))
  )
  return env.generation.preferences.channels.filter((channel) => used.has(channel))
}

/** The workflow's template settings, then (unless it is read-only where that counts) the subscriber's. */
export function resolvePreference(
  env: Environment,
  subscriber: Subscriber,
  workflow: Workflow
): Resolved {
  const rules = env.generation.preferences
  const settings = (workflow.preferenceSettings ?? {}) as ChannelFlags
  const channels: ChannelFlags = {}
  for (const channel of rules.channels) channels[channel] = settings[channel] ?? true
  const resolved: Resolved = { enabled: true, channels, bySubscriber: new Set() }
  if (rules.readOnlyHidesSubscriber && isReadOnly(workflow)) return resolved
  const own = env.preferences.forWorkflow(subscriber._id, workflow._id)
  const global =
    rules.mergesGlobal || flagIsOff(env) ? env.preferences.global(subscriber._id) : undefined
  for (const layer of [global, own]) {
    if (!layer) continue
    if (rules.storesEnabled && !layer.enabled) resolved.enabled = false
    for (const [channel, on] of Object.entries(layer.channels)) {
      if (!(channel in channels)) continue
      channels[channel] = on
      resolved.bySubscriber.add(channel)
    }
  }
  if (own) resolved.updatedAt = own.updatedAt
  return resolved
}

/** Whether a channel step of this workflow reaches the subscriber (upstream's `stepPreferred`). */
export function stepPreferred(
  env: Environment,
  subscriber: Subscriber,
  workflow: Workflow,
  channel: string
): boolean {
  // 2024-10 sends critical workflows whatever the subscriber chose; later servers read `readOnly`.
  if (!env.generation.preferences.readOnlyHidesSubscriber && workflow.critical) return true
  const resolved = resolvePreference(env, subscriber, workflow)
  return resolved.enabled && resolved.channels[channel] !== false
}

/** Only the given channels, in order. */
export function pick(channels: ChannelFlags, shown: readonly string[]): ChannelFlags {
  const out: ChannelFlags = {}
  for (const channel of shown) out[channel] = channels[channel] ?? true
  return out
}
