import type { TextMemo } from '../../http/text-memo.js'
import type { WorkflowStore } from '../workflows.store.js'

/**
 * Whether a body was created on this store under `prefix` before (its text's memo notes it
 * either way): a body sent again makes a workflow that differs from the earlier one only in its
 * ids, time and identifier, so the store keeps it compact, as a frame it shares with the
 * others (workflows.store.ts). A body sent once costs nothing more than its note. Without a memo
 * (a long body, caches off) every workflow is kept as the plain object it was built as.
 */
export function sentBefore(store: WorkflowStore, prefix: string, memo: TextMemo | undefined) {
  if (!memo) return false
  let prefixes = memo.createdIn.get(store)
  if (!prefixes) memo.createdIn.set(store, (prefixes = new Set()))
  const seen = prefixes.has(prefix)
  prefixes.add(prefix)
  return seen
}
