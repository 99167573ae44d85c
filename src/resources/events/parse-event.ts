import { badRequest, httpError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import type { TriggerResult } from './events.generations.js'
import {
  checkReservedVariables,
  mergePayload,
  payloadDefaults,
  verifyPayload,
} from '../../delivery/payload-checks.js'
import { createdWorkflowNote, createUnknownWorkflow } from './unknown-workflows.js'
import { runTrigger } from '../../delivery/worker.js'
import { tenantIdentifier, updateTenant } from '../tenants/tenant-context.js'
import { isObj, type Obj } from '../../objects.js'

/** One trigger as the controllers hand it to upstream's ParseEventRequest. */
export interface ParseInput {
  name: string
  addressing: 'multicast' | 'broadcast'
  to?: unknown
  payload: Obj
  overrides: Obj
  transactionId?: string
  actor?: unknown
  tenant?: unknown
  agentId?: unknown
  /** Tells the request's journal entry what the mock did beyond upstream (http/notes.ts). */
  note?: (text: string) => void
}

/** The first live workflow (in creation order) with this trigger identifier. */
function workflowByIdentifier(env: Environment, identifier: string): Workflow | undefined {
  return env.workflows.byIdentifier(identifier)
}

/** Under --unknown-workflows create, the workflow made for an unknown identifier, noted. */
function lenientWorkflow(env: Environment, input: ParseInput): Workflow | undefined {
  const workflow = createUnknownWorkflow(env, input.name)
  if (workflow) input.note?.(createdWorkflowNote(input.name))
  return workflow
}

/** Attachments: the files go to storage; the payload keeps their other fields. */
function withoutFiles(payload: Obj): Obj {
  if (!Array.isArray(payload.attachments)) return payload
  return {
    ...payload,
    attachments: payload.attachments.map((a) => {
      if (!isObj(a)) return a
      const { file: _file, ...rest } = a
      return rest
    }),
  }
}

/**
 * The checks the API process makes before it enqueues, in upstream's order; a processed
 * trigger then runs through the worker's steps before the answer.
 */
export function parseEvent(env: Environment, input: ParseInput): TriggerResult {
  const rules = env.generation.events
  const transactionId = input.transactionId || rules.newTransactionId(env.rng, env.clock.now())
  if (rules.agents && input.agentId !== undefined && input.agentId !== null)
    throw badRequest(`Agent with identifier "${String(input.agentId)}" was not found.`)
  const workflow = workflowByIdentifier(env, input.name) ?? lenientWorkflow(env, input)
  if (!workflow) throw httpError(422, 'workflow_not_found')
  if (rules.checksPayloadOverHttp) checkReservedVariables(workflow, input)
  const status = (name: string): TriggerResult => ({
    acknowledged: true,
    status: name,
    ...(rules.statusesCarryTransactionId ? { transactionId } : {}),
  })
  if (input.tenant) {
    const tenant = env.tenants.get(String(tenantIdentifier(input.tenant)))
    if (!tenant) return status('no_tenant_found')
  }
  if (!workflow.active) return status('trigger_not_active')
  if (rules.answersStepStatuses) {
    if (!workflow.steps?.length) return status('no_workflow_steps_defined')
    if (!workflow.steps.some((s) => s.active)) return status('no_workflow_active_steps_defined')
  }
  let payload = withoutFiles(input.payload)
  if (rules.checksPayloadOverHttp) verifyPayload(workflow, payload)
  payload = mergePayload(payloadDefaults(workflow), payload)
  if (input.tenant) updateTenant(env, input.tenant)
  runTrigger(env, {
    workflow,
    addressing: input.addressing,
    to: input.to,
    payload,
    overrides: input.overrides,
    transactionId,
    actor: input.actor,
    tenant: input.tenant,
  })
  return { acknowledged: true, status: 'processed', transactionId }
}
