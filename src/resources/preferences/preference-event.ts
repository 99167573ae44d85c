import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import type { Obj } from '../../objects.js'
import {
  activeChannels,
  environmentChannels,
  pick,
  resolvePreference,
} from './preferences.resolve.js'

/**
 * A preference as the Inbox shows it (upstream's InboxPreference): one workflow's (`template`
 * level), or the subscriber's global one, with its channels resolved.
 */
export function inboxPreference(
  env: Environment,
  subscriber: Subscriber,
  workflow?: Workflow
): Obj {
  if (!workflow) {
    const stored = env.preferences.global(subscriber._id)
    return {
      level: 'global',
      enabled: true,
      channels: pick(stored?.channels ?? {}, environmentChannels(env)),
    }
  }
  return {
    level: 'template',
    workflow: {
      id: workflow._id,
      identifier: workflow.triggers?.[0]?.identifier,
      name: workflow.name,
      critical: workflow.critical,
      tags: workflow.tags ?? [],
      severity: workflow.severity ?? 'none',
    },
    enabled: true,
    channels: pick(
      resolvePreference(env, subscriber, workflow).channels,
      activeChannels(env, workflow)
    ),
  }
}

/** `preference.updated`: upstream sends it from the preference update every route shares. */
export function emitPreferenceUpdated(
  env: Environment,
  subscriber: Subscriber,
  workflowId: string | undefined
) {
  if (!env.webhooks.wants('preference.updated')) return
  const workflow = workflowId === undefined ? undefined : env.workflows.get(workflowId)
  // 2024-10 writes a preference before it finds the workflow missing (and answers 404).
  if (workflowId !== undefined && !workflow) return
  env.webhooks.emit('preference.updated', () => ({
    object: inboxPreference(env, subscriber, workflow),
    subscriberId: subscriber.subscriberId,
  }))
}
