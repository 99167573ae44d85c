import type { Environment } from '../tenancy/environment.js'
import type { Workflow } from '../workflow-model/workflows.types.js'
import { renderWorkflowV2 } from '../resources/workflows-v2/workflows-v2.render.js'
import type { Obj } from '../objects.js'

/**
 * Upstream's workflow events carry the workflow as the v2 API answers it (a WorkflowResponseDto),
 * whichever API version changed it; `workflow.updated` also the workflow as it was.
 */

/**
 * The workflow before a change, when an endpoint takes `workflow.updated` (else undefined, and
 * nothing is rendered). `find` may throw (no such workflow): the route's own error comes later.
 */
export function workflowBefore(
  env: Environment,
  find: () => Workflow | undefined
): Obj | undefined {
  if (!env.webhooks.wants('workflow.updated')) return undefined
  try {
    const workflow = find()
    return workflow ? structuredClone(renderWorkflowV2(env, workflow)) : undefined
  } catch {
    return undefined
  }
}

export function emitWorkflow(
  env: Environment,
  type: 'workflow.created' | 'workflow.updated' | 'workflow.deleted',
  workflow: Workflow | undefined,
  previous?: Obj
) {
  if (!workflow) return
  env.webhooks.emit(type, () => ({
    object: renderWorkflowV2(env, workflow),
    ...(previous ? { previousObject: previous } : {}),
  }))
}
