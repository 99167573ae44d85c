import { InternalError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import {
  bracketsOpened,
  MAX_DOCUMENT_DEPTH,
  nestingDepth,
} from '../../workflow-model/document-cast.js'
import { buildWorkflow, type WorkflowInput } from './workflow-builder.js'
import { sentBefore } from '../../workflow-model/compact/repeated-bodies.js'
import { textMemo } from '../../http/text-memo.js'

/**
 * POST /v1/workflows as one use case: check and build the document (nothing is touched while
 * either can fail), then apply its side effects in one step. A refused create changes nothing,
 * except the group the blueprint path creates first, as upstream does. `raw` is the body's text:
 * a body sent before is stored compact (repeated-bodies.ts). Answers the new workflow's id.
 */
export function createWorkflow(
  env: Environment,
  input: WorkflowInput,
  prefix: string,
  raw?: string
): string {
  const now = env.now()
  const origin = env.generation.workflows.origin(prefix)
  const memo = textMemo(raw)
  const workflow = buildWorkflow(env.workflowContext(), input, now, origin, memo)
  // MongoDB refuses to store documents nested deeper than 100 levels: upstream answers 500.
  if (!shallow(raw) && nestingDepth(workflow, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH)
    throw new InternalError('BSON document nesting is deeper than 100 levels')
  env.workflows.add(workflow, { compact: sentBefore(env.workflows, prefix, memo) })
  return workflow._id
}

/**
 * The builder puts what it takes from the body at the depth the body had it or a level or two
 * deeper, beside fields of its own that nest 6 deep: a body whose text opens no more than 80
 * brackets makes a document well within 100 levels, and its walk (a few µs a create) is skipped.
 */
const SHALLOW_TEXT_BRACKETS = 80
const shallow = (raw: string | undefined) =>
  raw !== undefined && bracketsOpened(raw, SHALLOW_TEXT_BRACKETS) <= SHALLOW_TEXT_BRACKETS
