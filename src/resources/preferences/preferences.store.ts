/** Channels a preference can turn off (2024-10 has no `tool`). */
export type ChannelFlags = Record<string, boolean>

/**
 * A subscriber's own preference: global (no workflow) or for one workflow. 2024-10 stores
 * `enabled` (a workflow-level switch); later servers keep only the channels.
 */
export interface Preference {
  _id: string
  /** The subscriber's internal id, and its subscriberId for exports. */
  _subscriberId: string
  subscriberId: string
  /** The workflow's internal id; absent on the global preference. */
  _templateId?: string
  enabled: boolean
  channels: ChannelFlags
  createdAt: string
  updatedAt: string
}

/** Bytes one stored preference takes, counted against the memory budget before it is kept. */
export const PREFERENCE_BYTES = 600

const keyOf = (subscriberInternalId: string, workflowId?: string) =>
  `${subscriberInternalId}\u0000${workflowId ?? ''}`

/** One environment's subscriber preferences, by subscriber and workflow. */
export function createPreferenceStore(initial: readonly Preference[]) {
  const byKey = new Map<string, Preference>()
  let version = 0
  const put = (preference: Preference) => {
    version++
    byKey.set(keyOf(preference._subscriberId, preference._templateId), preference)
    return preference
  }
  initial.forEach(put)
  return {
    put,
    version: () => version,
    /** The subscriber's global preference, when one was stored. */
    global: (subscriberInternalId: string) => byKey.get(keyOf(subscriberInternalId)),
    /** The subscriber's preference for one workflow, when one was stored. */
    forWorkflow: (subscriberInternalId: string, workflowId: string) =>
      byKey.get(keyOf(subscriberInternalId, workflowId)),
    /** Changed in place: answers that show it go. */
    touch() {
      version++
    },
    all: (): Preference[] => [...byKey.values()],
  }
}

export type PreferenceStore = ReturnType<typeof createPreferenceStore>
