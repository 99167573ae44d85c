import type { Workflow } from './workflows.types.js'
import { duplicateId } from '../../tenancy/unique-ids.js'

/** Workflows by id in creation order, with the set of live trigger identifiers. */
export function createWorkflowStore(initial: Workflow[]) {
  const byId = new Map<string, Workflow>()
  const identifiers = new Map<string, number>()

  const identifierOf = (w: Workflow) => w.triggers[0]?.identifier
  function countIdentifier(w: Workflow, delta: number) {
    const id = identifierOf(w)
    if (id === undefined || w.deleted) return
    const next = (identifiers.get(id) ?? 0) + delta
    if (next > 0) identifiers.set(id, next)
    else identifiers.delete(id)
  }

  function add(workflow: Workflow) {
    if (byId.has(workflow._id)) throw duplicateId('notificationtemplates', workflow._id)
    byId.set(workflow._id, workflow)
    countIdentifier(workflow, 1)
    return workflow
  }
  initial.forEach(add)

  return {
    add,
    all: (): Workflow[] => [...byId.values()],
    /** A live (not deleted) workflow, as every read upstream excludes soft-deleted ones. */
    get(id: string) {
      const workflow = byId.get(id)
      return workflow && !workflow.deleted ? workflow : undefined
    },
    hasIdentifier: (identifier: string) => identifiers.has(identifier),
    /** Live workflows, counted from the identifier index (every live workflow has one). */
    liveCount: () => [...identifiers.values()].reduce((sum, n) => sum + n, 0),
    live: () => [...byId.values()].filter((w) => !w.deleted),
    /** Changes fields in place (never the trigger identifier, which indexes the store). */
    update(workflow: Workflow, changes: Partial<Workflow>) {
      const { triggers: _kept, ...rest } = changes
      Object.assign(workflow, rest)
      return workflow
    },
    /** A soft delete (mongoose-delete): reads skip it and its identifier is free again. */
    remove(workflow: Workflow, at: string) {
      countIdentifier(workflow, -1)
      workflow.deleted = true
      workflow.deletedAt = at
      return workflow
    },
    setStatus(workflow: Workflow, active: boolean, at: string, status?: string) {
      workflow.active = active
      workflow.draft = !active
      if (status !== undefined) workflow.status = status
      workflow.updatedAt = at
      return workflow
    },
  }
}

export type WorkflowStore = ReturnType<typeof createWorkflowStore>
