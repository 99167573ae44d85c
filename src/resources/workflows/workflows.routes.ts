import { badRequest, CommandValidationError, InternalError, notFound } from '../../errors.js'
import { emitWorkflow, workflowBefore } from '../../webhooks/workflow-events.js'
import { isMongoId } from '../../http/rules.js'
import { defineRoute, type AnyRoute } from '../../http/route.js'
import { json, jsonText } from '../../http/respond.js'
import type { Environment } from '../../tenancy/environment.js'
import { createWorkflow } from './create-workflow.js'
import { noteOnRequest } from '../../http/notes.js'
import { takenNameNote } from '../../workflow-model/workflow-notes.js'
import { renderListItem, renderWorkflow } from './workflows.render.js'
import {
  CreateWorkflowBodySchema,
  ListWorkflowsQuerySchema,
  SetStatusBodySchema,
  WorkflowEnvelopeSchema,
  WorkflowIdParamsSchema,
  WorkflowListSchema,
} from './workflows.schemas.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'

// Upstream escapes the query into a case-insensitive regex: a plain case-insensitive substring test.
function listWorkflows(env: Environment, query: string | undefined) {
  const needle = query?.toLowerCase()
  const has = (text: string) => needle === undefined || text.toLowerCase().includes(needle)
  const matches = (w: Workflow) => has(w.name) || w.triggers.some((t) => has(t.identifier))
  const hidden = env.generation.workflows.hiddenFromV1List
  // Newest first; among equal timestamps, the later insert first.
  return env.workflows
    .live()
    .filter((w) => !hidden(w) && matches(w))
    .reverse()
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
}

/**
 * Upstream accepts the canonical 24-hex id or, failing that, a trigger identifier; the lookup
 * by identifier populates the steps' templates but not their variants'.
 */
function findWorkflow(env: Environment, idOrIdentifier: string) {
  if (/^[0-9a-f]{24}$/.test(idOrIdentifier))
    return { workflow: env.workflows.get(idOrIdentifier), variantTemplates: true }
  return { workflow: env.workflows.byIdentifier(idOrIdentifier), variantTemplates: false }
}

/**
 * `{data: renderWorkflow(workflow)}` as JSON: for a workflow kept as a template, from a
 * template of the answer, made once per shape (workflows.store.ts).
 */
export const answerOf = (env: Environment, workflowId: string, variantTemplates = true) =>
  env.workflows.rendered(workflowId, variantTemplates ? 'v1' : 'v1-by-identifier', (w) => ({
    data: renderWorkflow(w, { variantTemplates }),
  }))

/**
 * The v1 workflow routes. Upstream serves them at /v1/workflows and at the older
 * /v1/notification-templates, which the legacy Node SDK calls.
 */
export function workflowRoutes(prefix: '/v1/workflows' | '/v1/notification-templates'): AnyRoute[] {
  const tags = [prefix === '/v1/workflows' ? 'Workflows' : 'Workflows (legacy path)']
  return [
    defineRoute({
      method: 'GET',
      path: prefix,
      summary: 'List workflows, newest first',
      tags,
      auth: 'apiKey',
      query: ListWorkflowsQuerySchema,
      numericQuery: ['page', 'limit'],
      responses: {
        200: {
          description: 'A page of workflows (not wrapped in data)',
          schema: WorkflowListSchema,
        },
      },
      handler(c, { env, query }) {
        const page = query.page ?? 0
        const limit = query.limit ?? 10
        if (page < 0) throw new InternalError('MongoDB refuses a negative skip')
        const all = listWorkflows(env, query.query || undefined)
        const data = all
          .slice(page * limit, page * limit + limit)
          .map((w) =>
            renderListItem(
              w,
              w._notificationGroupId ? env.groups.get(w._notificationGroupId) : undefined,
              env.integrations.hasActive
            )
          )
        return json(c, 200, { page, data, totalCount: all.length, pageSize: limit })
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${prefix}/:workflowId`,
      summary: 'Get a workflow by id or trigger identifier',
      tags,
      auth: 'apiKey',
      params: WorkflowIdParamsSchema,
      responses: {
        200: { description: 'The workflow', schema: WorkflowEnvelopeSchema },
        404: { description: 'Template with id <id> not found' },
      },
      handler(c, { env, params }) {
        const { workflow, variantTemplates } = findWorkflow(env, params.workflowId)
        if (!workflow) throw env.generation.workflows.notFoundById(params.workflowId)
        return jsonText(c, 200, answerOf(env, workflow._id, variantTemplates))
      },
    }),
    defineRoute({
      method: 'POST',
      path: prefix,
      summary: 'Create a workflow',
      tags,
      auth: 'apiKey',
      developmentOnly: true,
      body: CreateWorkflowBodySchema,
      sharedBody: true,
      responses: {
        201: { description: 'The created workflow', schema: WorkflowEnvelopeSchema },
        400: { description: 'A template check or a limit failed (2026-08: 422 for validation)' },
        401: { description: 'Production keys may not write workflows' },
      },
      handler(c, { env, body }) {
        const workflowId = createWorkflow(env, body, prefix, c.get('rawBody'))
        emitWorkflow(env, 'workflow.created', env.workflows.get(workflowId))
        const kept = env.workflows.keptBytes(workflowId)
        if (kept !== undefined) c.set('keptBytes', kept)
        const identifier = env.workflows.get(workflowId)?.triggers[0]?.identifier
        const taken =
          identifier && takenNameNote(env, (body as { name?: unknown }).name, identifier)
        if (taken) noteOnRequest(c, taken.note, taken.advice)
        return jsonText(c, 201, answerOf(env, workflowId))
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${prefix}/:workflowId/status`,
      summary: 'Activate or deactivate a workflow',
      tags,
      auth: 'apiKey',
      developmentOnly: true,
      params: WorkflowIdParamsSchema,
      body: SetStatusBodySchema,
      sharedBody: true,
      responses: {
        200: { description: 'The updated workflow', schema: WorkflowEnvelopeSchema },
        400: { description: 'Validation failed, or the status would not change' },
        404: { description: 'Template with id <id> not found' },
      },
      handler(c, { env, params, body }) {
        // The command names the id templateId, whatever the route calls it.
        const idProblem = isMongoId(params.workflowId, 'templateId')
        if (idProblem)
          throw new CommandValidationError('ChangeTemplateActiveStatusCommand', [
            { property: 'templateId', messages: [idProblem], value: params.workflowId },
          ])
        const workflow = env.workflows.get(params.workflowId.toLowerCase())
        if (!workflow) throw notFound(`Template with id ${params.workflowId} not found`)
        if (workflow.active === body.active)
          throw badRequest('You must provide a different status from the current status')
        const status = env.generation.workflows.statusFor(body.active)
        const before = workflowBefore(env, () => workflow)
        env.workflows.setStatus(workflow, body.active, env.now(), status)
        emitWorkflow(env, 'workflow.updated', env.workflows.get(workflow._id), before)
        return jsonText(c, 200, answerOf(env, workflow._id))
      },
    }),
  ]
}
