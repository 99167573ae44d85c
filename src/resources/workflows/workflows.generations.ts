import { SETTINGS_ORDER, WORKFLOW_PREFERENCES_ORDER } from '../../channels.js'
import { notFound, objectError, type ApiError, type FieldViolation } from '../../errors.js'
import { isObj } from '../../objects.js'
import type { WorkflowInput } from './workflow-builder.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'

/** The order in which the create use case meets its checks; see create-workflow.ts. */
type CreateOrder = 'first-step-then-variables' | 'templates-then-variables'

/** How the v1 workflow routes differ between generations. */
export interface WorkflowsRules {
  /** The create command's class name, as the newer filter prints it. */
  createCommand: string
  /** The create command's checks beyond the DTO's, in property order (and message order). */
  createViolations(input: WorkflowInput): FieldViolation[]
  createOrder: CreateOrder
  /** Upstream's resource limits, checked before anything is built. */
  maxSteps?: number
  limitsWorkflows: boolean
  /** Where a workflow created over v1 says it came from. */
  origin(prefix: string): string
  /** The channels of `preferenceSettings`, in the order upstream stores them. */
  preferenceChannels: readonly string[]
  /** The fields the newer server adds to a workflow document. */
  extraFields(
    input: WorkflowInput,
    preferenceSettings: Record<string, boolean>
  ): Record<string, unknown>
  /** The `status` field a status change writes, if the generation has it. */
  statusFor(active: boolean): string | undefined
  notFoundById(id: string): ApiError
  /** Whether GET /v1/workflows leaves a workflow out (the new dashboard's, since late 2024). */
  hiddenFromV1List(workflow: Workflow): boolean
}

const mongoId = /^[0-9a-fA-F]{24}$/

function groupIdViolation({ notificationGroupId: id }: WorkflowInput): FieldViolation[] {
  if (mongoId.test(String(id))) return []
  const messages = ['notificationGroupId must be a mongodb id']
  return [{ property: 'notificationGroupId', messages, value: id }]
}

export const workflows2024: WorkflowsRules = {
  createCommand: 'CreateWorkflowCommand',
  createViolations: groupIdViolation,
  createOrder: 'first-step-then-variables',
  limitsWorkflows: false,
  origin: () => 'novu-cloud',
  preferenceChannels: SETTINGS_ORDER,
  extraFields: () => ({}),
  statusFor: () => undefined,
  notFoundById: (id) => notFound(`Template with id ${id} not found`),
  hiddenFromV1List: () => false,
}

const MAX_NAME = 128
const MAX_DESCRIPTION = 256
const MAX_TAG = 64

/** class-validator's Length message; with `each`, the whole array is what it measures. */
function lengthMessage(property: string, value: { length: number }, min: number, max: number) {
  if (value.length < min) return `${property} must be longer than or equal to ${min} characters`
  if (value.length > max) return `${property} must be shorter than or equal to ${max} characters`
  return `${property} must be longer than or equal to ${min} and shorter than or equal to ${max} characters`
}

export function limitViolations(input: WorkflowInput): FieldViolation[] {
  const out: FieldViolation[] = []
  const { name, description, tags } = input
  if (typeof name === 'string' && (name.length < 1 || name.length > MAX_NAME))
    out.push({
      property: 'name',
      messages: [lengthMessage('name', name, 1, MAX_NAME)],
      value: name,
    })
  if (typeof description === 'string' && description.length > MAX_DESCRIPTION)
    out.push({
      property: 'description',
      messages: [lengthMessage('description', description, 0, MAX_DESCRIPTION)],
      value: description,
    })
  if (Array.isArray(tags)) {
    const messages: string[] = []
    const fits = (t: unknown) => typeof t === 'string' && t.length >= 1 && t.length <= MAX_TAG
    if (!tags.every(fits)) messages.push(`each value in ${lengthMessage('tags', tags, 1, MAX_TAG)}`)
    if (new Set(tags).size !== tags.length) messages.push("All tags's elements must be unique")
    if (messages.length) out.push({ property: 'tags', messages, value: tags })
  }
  return out
}

const preferences = (
  all: { enabled: boolean; readOnly: boolean },
  channels: Record<string, boolean>
) => ({
  all,
  channels: channelSettings(channels),
})

/** Each channel's setting, in upstream's order; by assignment, without a [key, value] pair each. */
function channelSettings(channels: Record<string, boolean>) {
  const out: Record<string, { enabled: boolean }> = {}
  for (const channel of WORKFLOW_PREFERENCES_ORDER)
    out[channel] = { enabled: channels[channel] ?? true }
  return out
}

export const workflows2026: WorkflowsRules = {
  createCommand: 'CreateWorkflowCommandV0',
  createViolations: (input) => [...limitViolations(input), ...groupIdViolation(input)],
  createOrder: 'templates-then-variables',
  maxSteps: 20,
  limitsWorkflows: true,
  origin: (prefix) => (prefix === '/v1/workflows' ? 'novu-cloud-v1' : 'novu-cloud'),
  preferenceChannels: WORKFLOW_PREFERENCES_ORDER,
  extraFields(input, preferenceSettings) {
    const sent = isObj(input.preferenceSettings)
    return {
      payloadSchema: { type: 'object', additionalProperties: true, properties: {} },
      validatePayload: true,
      isTranslationEnabled: false,
      severity: 'none',
      agent: null,
      lastTriggeredAt: null,
      lastPublishedAt: null,
      userPreferences: sent
        ? preferences({ enabled: true, readOnly: input.critical === true }, preferenceSettings)
        : null,
      defaultPreferences: preferences({ enabled: true, readOnly: false }, {}),
    }
  },
  statusFor: (active) => (active ? 'ACTIVE' : 'INACTIVE'),
  notFoundById: (id) => objectError(404, { message: 'Workflow cannot be found', workflowId: id }),
  hiddenFromV1List: (workflow) => workflow.origin === 'novu-cloud' && workflow.type === 'BRIDGE',
}
