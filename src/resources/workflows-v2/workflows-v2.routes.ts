import { defineRoute, type AnyRoute } from '../../http/route.js'
import { emitWorkflow, workflowBefore } from '../../webhooks/workflow-events.js'
import { json, jsonText } from '../../http/respond.js'
import type { Generation } from '../../generations/generation.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import type { Obj } from '../../objects.js'
import {
  renderWorkflowListItemV2,
  renderWorkflowV2,
  renderWorkflowV2Text,
  V2_STATUS_FIELDS,
  v2AnswerKeepable,
} from './workflows-v2.render.js'
import {
  CreateWorkflowV2BodySchema,
  GetWorkflowV2QuerySchema,
  ListWorkflowsV2QuerySchema,
  PatchWorkflowV2BodySchema,
  UpdateWorkflowV2BodySchema,
  WorkflowV2EnvelopeSchema,
  WorkflowV2ListSchema,
  WorkflowV2ParamsSchema,
} from './workflows-v2.schemas.js'
import {
  checkEnvironmentScope,
  createWorkflowV2,
  deleteWorkflowV2,
  findWorkflow,
  patchWorkflowV2,
  emptiedEmailBodies,
  updateWorkflowV2,
} from './workflows-v2.usecases.js'
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.js'
import { noteOnRequest } from '../../http/notes.js'
import { emptiedEmailBodyNote, takenWorkflowIdNote } from '../../workflow-model/workflow-notes.js'

const tags = ['Workflows (v2)']

/** Notes each email step whose HTML body the block editor emptied, once the write succeeded. */
const noteEmptiedBodies = (c: Context<AppEnv>, body: Obj) => {
  for (const index of emptiedEmailBodies(body.steps)) noteOnRequest(c, emptiedEmailBodyNote(index))
}
/** The 2024-10 server kept these routes for the dashboard: its guard refuses API keys first. */
const refusal = { apiKeyRefusal: (g: Generation) => g.workflowsV2.apiKeyRefusal?.() }
/** `{data: renderWorkflowV2(workflow)}` as JSON, for an answer sent once (create, replace). */
const written = (env: Environment, workflow: Workflow) =>
  `{"data":${renderWorkflowV2Text(env, workflow)}}`

/**
 * `{data: renderWorkflowV2(workflow)}` as JSON, from the workflow's answer kept with its status
 * fields as slots (a patch of `active` then costs a fill, not a render of every step's
 * variables): see the workflows store's renderedWithSlots.
 */
const answerV2 = (env: Environment, workflow: Workflow) =>
  `{"data":${env.workflows.renderedWithSlots(
    workflow,
    'v2',
    (w) => renderWorkflowV2(env, w),
    V2_STATUS_FIELDS,
    (w) => v2AnswerKeepable(env, w)
  )}}`

/** MongoDB's order for one sort key: absent and null first, then numbers, strings, booleans. */
function sortValue(value: unknown): [number, string | number] {
  if (value === undefined || value === null) return [0, 0]
  if (typeof value === 'number') return [1, value]
  if (typeof value === 'string') return [2, value]
  return [3, String(value)]
}

function compare(a: unknown, b: unknown): number {
  const [rankA, valueA] = sortValue(a)
  const [rankB, valueB] = sortValue(b)
  if (rankA !== rankB) return rankA - rankB
  if (typeof valueA === 'string' && typeof valueB === 'string')
    return Buffer.compare(Buffer.from(valueA), Buffer.from(valueB))
  return valueA < valueB ? -1 : valueA > valueB ? 1 : 0
}

interface ListQuery {
  query?: string
  tags?: string[]
  status?: string[]
  limit?: number
  offset?: number
  orderDirection?: string
  orderBy?: string
}

/**
 * Upstream's getList: every workflow of the environment (dashboard and v1 alike), filtered by a
 * case-insensitive substring of the name or workflowId, any of the tags and any of the stored
 * statuses; sorted on one field (ties: the later insert first when descending).
 */
function listWorkflows(env: Environment, query: ListQuery) {
  const needle = query.query ? query.query.toLowerCase() : undefined
  const has = (text: unknown) =>
    typeof text === 'string' && needle !== undefined && text.toLowerCase().includes(needle)
  const tagsWanted = query.tags?.length ? query.tags : undefined
  const statuses = query.status?.length ? query.status : undefined
  const matching = env.workflows
    .live()
    .filter(
      (w) =>
        (needle === undefined || has(w.name) || w.triggers.some((t) => has(t.identifier))) &&
        (!tagsWanted || (w.tags ?? []).some((tag) => tagsWanted.includes(tag))) &&
        (!statuses || statuses.includes(w.status as string))
    )
  const field = query.orderBy ?? 'createdAt'
  const ascending = query.orderDirection === 'ASC'
  const ordered = (ascending ? matching : [...matching].reverse()).sort((a, b) => {
    const order = compare(a[field], b[field])
    return ascending ? order : -order
  })
  const offset = query.offset ?? 0
  const limit = query.limit ?? 50
  return { page: ordered.slice(offset, offset + limit), totalCount: matching.length }
}

/** /v2/workflows, as `@novu/api` 3.x calls it (create, list, get, update, patch, delete). */
export const workflowV2Routes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/v2/workflows',
    summary: 'Create a workflow (a duplicate workflowId is suffixed, not refused)',
    tags,
    auth: 'apiKey',
    ...refusal,
    body: CreateWorkflowV2BodySchema,
    responses: {
      201: { description: 'The created workflow', schema: WorkflowV2EnvelopeSchema },
      400: { description: 'More than 20 steps, the workflow limit, no free workflowId' },
      401: { description: '2024-10: API endpoint not available' },
    },
    handler(c, { env, body }) {
      const workflow = createWorkflowV2(env, body as Obj, c.get('rawBody'))
      emitWorkflow(env, 'workflow.created', workflow)
      noteEmptiedBodies(c, body as Obj)
      const taken = takenWorkflowIdNote(
        (body as Obj).workflowId as string,
        workflow.triggers[0]?.identifier as string
      )
      if (taken) noteOnRequest(c, taken.note, taken.advice)
      return jsonText(c, 201, written(env, workflow))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/workflows',
    summary: 'List workflows (offset pagination; dashboard and v1 workflows alike)',
    tags,
    auth: 'apiKey',
    ...refusal,
    query: ListWorkflowsV2QuerySchema,
    responses: {
      200: { description: 'A page of workflows', schema: WorkflowV2ListSchema },
      401: { description: '2024-10: API endpoint not available' },
    },
    handler(c, { env, query }) {
      const { page, totalCount } = listWorkflows(env, query as ListQuery)
      const workflows = page.map((w) => renderWorkflowListItemV2(env, w))
      return json(c, 200, { data: { workflows, totalCount } })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/workflows/:workflowId',
    summary: 'Get a workflow by _id, workflowId or slug',
    tags,
    auth: 'apiKey',
    ...refusal,
    params: WorkflowV2ParamsSchema,
    query: GetWorkflowV2QuerySchema,
    responses: {
      200: { description: 'The workflow', schema: WorkflowV2EnvelopeSchema },
      403: { description: 'environmentId names another environment' },
      404: { description: 'Workflow cannot be found (`workflowId` flat and in ctx)' },
    },
    handler(c, { env, params, query }) {
      checkEnvironmentScope(env, (query as Obj).environmentId)
      return jsonText(c, 200, answerV2(env, findWorkflow(env, params.workflowId)))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v2/workflows/:workflowId',
    summary: 'Replace a workflow (steps matched by _id are kept; origin and workflowId stay)',
    tags,
    auth: 'apiKey',
    ...refusal,
    params: WorkflowV2ParamsSchema,
    body: UpdateWorkflowV2BodySchema,
    responses: {
      200: { description: 'The updated workflow', schema: WorkflowV2EnvelopeSchema },
      404: { description: 'Workflow cannot be found' },
    },
    handler(c, { env, params, body }) {
      const before = workflowBefore(env, () => findWorkflow(env, params.workflowId))
      const workflow = updateWorkflowV2(env, params.workflowId, body as Obj)
      emitWorkflow(env, 'workflow.updated', workflow, before)
      noteEmptiedBodies(c, body as Obj)
      return jsonText(c, 200, written(env, workflow))
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/workflows/:workflowId',
    summary: 'Change some fields of a workflow (`active` among them); status recomputed',
    tags,
    auth: 'apiKey',
    existsIn: (g) => g.workflowsV2.patch,
    params: WorkflowV2ParamsSchema,
    body: PatchWorkflowV2BodySchema,
    responses: {
      200: { description: 'The patched workflow', schema: WorkflowV2EnvelopeSchema },
      404: { description: 'Workflow cannot be found' },
    },
    handler(c, { env, params, body }) {
      const before = workflowBefore(env, () => findWorkflow(env, params.workflowId))
      const workflow = patchWorkflowV2(env, params.workflowId, body as Obj)
      emitWorkflow(env, 'workflow.updated', workflow, before)
      return jsonText(c, 200, answerV2(env, workflow))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/workflows/:workflowId',
    summary: 'Delete a workflow (soft; its workflowId can be used again)',
    tags,
    auth: 'apiKey',
    ...refusal,
    params: WorkflowV2ParamsSchema,
    responses: {
      204: { description: 'Deleted (no body)' },
      404: { description: 'Workflow cannot be found' },
    },
    handler(c, { env, params }) {
      if (env.webhooks.wants('workflow.deleted'))
        emitWorkflow(env, 'workflow.deleted', findWorkflow(env, params.workflowId))
      deleteWorkflowV2(env, params.workflowId)
      return c.body(null, 204)
    },
  }),
]
