import type { WorkflowStore } from './workflows.store.js'

/**
 * The bodies a store's creates sent lately, by route prefix: a body sent again makes a workflow
 * that differs from the earlier one only in its ids, time and identifier, so the store keeps it
 * compact, as a template it shares with the others (workflows.store.ts). A body sent once costs
 * nothing more than its place here. The last few bodies, none over 16 kB.
 */
const MAX_BODIES = 8
const MAX_BODY = 16 * 1024
const bodies = new WeakMap<WorkflowStore, Map<string, Set<string>>>()

/** Whether `raw` was created on this store under `prefix` before; notes it either way. */
export function sentBefore(store: WorkflowStore, prefix: string, raw: string | undefined) {
  if (raw === undefined || raw.length > MAX_BODY) return false
  let forStore = bodies.get(store)
  if (!forStore) bodies.set(store, (forStore = new Map()))
  let recent = forStore.get(prefix)
  if (!recent) forStore.set(prefix, (recent = new Set()))
  const seen = recent.delete(raw)
  if (recent.size >= MAX_BODIES) recent.delete(recent.values().next().value as string)
  recent.add(raw)
  return seen
}
