import { badRequest } from '../../errors.js'
import { emitWorkflow, workflowBefore } from '../../webhooks/workflow-events.js'
import { isObjectId } from '../../http/rules.js'
import { defineRoute, type AnyRoute } from '../../http/route.js'
import { json, jsonText } from '../../http/respond.js'
import { writeBytes } from '../../memory/estimate.js'
import { isObj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import { buildWorkflow } from './workflow-builder.js'
import {
  deleteIdViolation,
  updateIdViolation,
  UpdateWorkflowBodySchema,
  type UpdateWorkflowBody,
} from './workflow-edits.generations.js'
import { answerOf } from './workflows.routes.js'
import { WorkflowIdParamsSchema } from './workflows.schemas.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'

/**
 * PUT and DELETE /v1/workflows/:id (and the older /v1/notification-templates alias the legacy
 * Node SDK calls): upstream's v0 update and soft delete. Any key may update; only a Development
 * key may delete (RootEnvironmentGuard).
 */

/** Triggers' variables as an update recomputes them: each `{name, type}` only. */
const bare = (list: { name: string; type?: string }[] = []) =>
  list.map((v) => ({ name: v.name, ...(v.type !== undefined ? { type: v.type } : {}) }))

/** The steps and trigger variables the new steps give, built as a create would build them. */
function rebuiltSteps(env: Environment, workflow: Workflow, steps: unknown[], now: string) {
  const scratch = buildWorkflow(
    env.workflowContext(),
    { name: workflow.name, notificationGroupId: workflow._notificationGroupId ?? '', steps },
    now
  )
  const [trigger] = scratch.triggers
  const [current, ...others] = workflow.triggers
  return {
    steps: scratch.steps,
    triggers: [
      {
        ...current,
        variables: bare(trigger?.variables),
        reservedVariables: (trigger?.reservedVariables ?? []).map((r) => ({
          type: r.type,
          variables: bare(r.variables),
        })),
        subscriberVariables: bare(trigger?.subscriberVariables),
      },
      ...others,
    ] as Workflow['triggers'],
  }
}

function update(env: Environment, workflow: Workflow, body: UpdateWorkflowBody) {
  const rules = env.generation.workflowEdits
  const refused = rules.updateViolations(body)
  if (refused) throw refused
  const now = env.now()
  const changes: Partial<Workflow> & Record<string, unknown> = {}
  if (body.name) changes.name = body.name
  if (body.description !== undefined && body.description !== null)
    changes.description = body.description
  if (body.tags) changes.tags = body.tags
  if (body.data) changes.data = body.data
  if (body.critical !== undefined && body.critical !== null)
    changes.critical = body.critical === true
  if (isObj(body.preferenceSettings))
    changes.preferenceSettings = body.preferenceSettings as Workflow['preferenceSettings']
  if (body.notificationGroupId)
    changes._notificationGroupId = body.notificationGroupId.toLowerCase()
  const identifier = body.identifier || undefined
  const current = workflow.triggers[0]?.identifier
  if (identifier !== undefined && identifier !== current) {
    const holder = env.workflows.byIdentifier(identifier)
    if (holder && holder._id !== workflow._id)
      throw badRequest(`Workflow with identifier ${identifier} already exists`)
  }
  const rebuilt = body.steps ? rebuiltSteps(env, workflow, body.steps, now) : undefined
  if (rules.refusesEmptyUpdate && !Object.keys(changes).length && !identifier && !rebuilt)
    throw badRequest('No properties found for update')
  if (rebuilt) Object.assign(changes, { steps: rebuilt.steps })
  env.workflows.update(workflow, { ...changes, updatedAt: now })
  if (rebuilt) workflow.triggers = rebuilt.triggers
  if (identifier !== undefined && identifier !== current) env.workflows.rename(workflow, identifier)
}

export function workflowEditRoutes(
  prefix: '/v1/workflows' | '/v1/notification-templates'
): AnyRoute[] {
  const tags = [prefix === '/v1/workflows' ? 'Workflows' : 'Workflows (legacy path)']
  return [
    defineRoute<{ workflowId: string }, Record<string, unknown>, UpdateWorkflowBody>({
      method: 'PUT',
      path: `${prefix}/:workflowId`,
      summary: 'Update a workflow (name, identifier, steps, tags...; not its status)',
      tags,
      auth: 'apiKey',
      params: WorkflowIdParamsSchema,
      body: UpdateWorkflowBodySchema,
      responses: {
        200: { description: 'The updated workflow, in data' },
        400: { description: 'Validation failed, or the identifier is taken' },
        404: { description: 'No such workflow' },
      },
      handler(c, { env, params, body }) {
        const rules = env.generation.workflowEdits
        if (!isObjectId(params.workflowId)) throw updateIdViolation(rules, params.workflowId)
        const workflow = env.workflows.get(params.workflowId.toLowerCase())
        if (!workflow) throw rules.updateUnknown(params.workflowId)
        // New steps are kept as a create's are: counted before they are built.
        const bytes = body.steps ? writeBytes(body, prefix) : 0
        env.memory.admit(bytes, 'the steps this update builds')
        const before = workflowBefore(env, () => workflow)
        update(env, workflow, body)
        emitWorkflow(env, 'workflow.updated', env.workflows.get(workflow._id), before)
        env.memory.grow(bytes)
        return jsonText(c, 200, answerOf(env, workflow._id))
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${prefix}/:workflowId`,
      summary: 'Delete a workflow (soft); its messages stay',
      tags,
      auth: 'apiKey',
      developmentOnly: true,
      params: WorkflowIdParamsSchema,
      responses: {
        200: { description: '{data: true}' },
        401: { description: 'A Production key' },
      },
      handler(c, { env, params }) {
        if (!isObjectId(params.workflowId)) throw deleteIdViolation(params.workflowId)
        const workflow = env.workflows.get(params.workflowId.toLowerCase())
        if (!workflow) throw env.generation.workflowEdits.deleteUnknown(params.workflowId)
        emitWorkflow(env, 'workflow.deleted', workflow)
        env.workflows.remove(workflow, env.now())
        return json(c, 200, { data: true })
      },
    }),
  ]
}
