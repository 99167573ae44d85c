/**
 * `--unknown-workflows create` (the mock's own; upstream answers 422 workflow_not_found): a
 * trigger for an identifier the environment does not hold creates a minimal dashboard workflow,
 * one in-app step, as POST /v2/workflows would, so that an app's triggers go through before its
 * team captures its own workflows (novu-mock capture).
 */
import { isKnownError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { workflowV2Document } from '../workflows-v2/workflows-v2.usecases.js'

/** The note the trigger's journal entry carries. */
export const createdWorkflowNote = (identifier: string) =>
  `the workflow "${identifier}" did not exist: created with one in-app step, because the mock runs with --unknown-workflows create (the real service answers 422 workflow_not_found); capture your own with novu-mock capture`

/** The workflow made for the identifier, or undefined where none is made (the 422 stands). */
export function createUnknownWorkflow(env: Environment, identifier: string): Workflow | undefined {
  if (env.unknownWorkflows !== 'create') return undefined
  let workflow: Workflow
  try {
    workflow = workflowV2Document(env, {
      name: identifier,
      workflowId: identifier,
      steps: [{ name: 'In-App', type: 'in_app', controlValues: { body: identifier } }],
    })
  } catch (error) {
    // An identifier no workflowId can be, or the workflow limit: the trigger answers as upstream.
    if (isKnownError(error)) return undefined
    throw error
  }
  if (workflow.triggers[0]?.identifier !== identifier) return undefined
  return env.workflows.add(workflow)
}
