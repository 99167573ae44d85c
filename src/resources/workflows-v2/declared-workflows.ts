/**
 * Scenario workflows declared in the POST /v2/workflows shape: built as that route builds them,
 * then given the ids and times the record carries, so that a captured workflow answers with the
 * ids its own server gave it.
 */
import { DEFAULT_EPOCH } from '../../tenancy/clock.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { isObj, type Obj } from '../../objects.js'
import { workflowV2Document } from './workflows-v2.usecases.js'

/** A record in the /v2 shape: it names its `workflowId` and is no whole document (`triggers`). */
export const isV2WorkflowRecord = (record: Obj): boolean =>
  typeof record.workflowId === 'string' && !Array.isArray(record.triggers)

const stringOr = (value: unknown, fallback: string) =>
  typeof value === 'string' ? value : fallback

export function declaredWorkflowV2(env: Environment, record: Obj): Workflow {
  const { _id, createdAt, updatedAt, steps: sent, ...dto } = record
  const sentSteps = (Array.isArray(sent) ? sent : []).map((s) => (isObj(s) ? s : {}))
  const steps = sentSteps.map(({ _id: _kept, ...step }) => step)
  const created = stringOr(createdAt, DEFAULT_EPOCH)
  // Seeding builds what the scenario declares: upstream's workflow limit guards creates only;
  // and the record's time, not the clock's, so that the same file builds the same documents.
  const context = Object.freeze({ ...env.workflowContext(), maxWorkflows: 0 })
  const seeding: Environment = { ...env, workflowContext: () => context, now: () => created }
  const workflow = workflowV2Document(seeding, { ...dto, steps })
  if (typeof _id === 'string') workflow._id = _id
  workflow.updatedAt = stringOr(updatedAt, created)
  workflow.steps.forEach((step, index) => {
    const id = sentSteps[index]?._id
    if (typeof id === 'string') {
      step._id = id
      step._templateId = id
      step.template = { ...step.template, _id: id }
    }
    step._parentId = index === 0 ? null : (workflow.steps[index - 1]?._id ?? null)
  })
  return workflow
}
