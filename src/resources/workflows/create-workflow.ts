import { InternalError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import { MAX_DOCUMENT_DEPTH, nestingDepth } from './document-cast.js'
import { buildWorkflow, type WorkflowInput } from './workflow-builder.js'
import { findReplay, recordingIds, recordReplay, replayCreate } from './create-replay.js'

/**
 * POST /v1/workflows as one use case: check and build the document (nothing is touched while
 * either can fail), then apply its side effects in one step. A refused create changes nothing,
 * except the group the blueprint path creates first, as upstream does. A body created before in
 * the environment is replayed instead of built (create-replay.ts); `raw` is its text. Answers
 * the new workflow's id.
 */
export function createWorkflow(
  env: Environment,
  input: WorkflowInput,
  prefix: string,
  raw?: string
): string {
  const now = env.now()
  const found = input.blueprintId == null ? findReplay(env, prefix, raw) : undefined
  if (found?.replay) return replayCreate(env, found.replay, now)
  const origin = env.generation.workflows.origin(prefix)
  const { ctx, ids } = recordingIds(env.workflowContext())
  const workflow = buildWorkflow(ctx, input, now, origin)
  // MongoDB refuses to store documents nested deeper than 100 levels: upstream answers 500.
  if (nestingDepth(workflow, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH)
    throw new InternalError('BSON document nesting is deeper than 100 levels')
  // A body sent before is kept as a template (workflow-template.ts), which the next ones share.
  env.workflows.add(workflow, { compact: found?.record === true })
  if (found?.record)
    recordReplay(env, found.key, { workflowId: workflow._id, name: input.name, ids, now })
  return workflow._id
}
