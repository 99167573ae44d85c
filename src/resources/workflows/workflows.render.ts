import { isChannel } from '../../channels.js'
import type { NotificationGroup } from '../notification-groups/notification-groups.store.js'
import type { Workflow, WorkflowStep } from '../../workflow-model/workflows.types.js'
import { DEFAULT_ACTIVE_CHANNELS } from '../../delivery/integrations.js'

/**
 * A workflow read as one document (create, status, get): Mongoose adds the `id` virtual to the
 * workflow, its steps and their populated templates. `notificationGroup` is not populated.
 */
export function renderWorkflow(
  workflow: Workflow,
  { variantTemplates = true }: { variantTemplates?: boolean } = {}
): Record<string, unknown> {
  // A bare spread, then assignments (which keep a key where it was, or append it): V8 copies
  // `{ ...o }` alone four times faster than a literal that mixes a spread with other keys.
  const out: Record<string, unknown> = { ...workflow }
  out.steps = workflow.steps.map((step) => renderStep(step, variantTemplates))
  out.id = workflow._id
  return out
}

/** A step with its template populated; a variant's template only where the read populates it. */
function renderStep(step: WorkflowStep, variantTemplates: boolean, populate = true) {
  const out: Record<string, unknown> = { ...step }
  // A dashboard step's control values live in a collection of their own upstream.
  if ('controlValues' in out || 'providerOverrides' in out) {
    delete out.controlValues
    delete out.providerOverrides
  }
  if (Array.isArray(step.variants))
    out.variants = (step.variants as WorkflowStep[]).map((variant) =>
      renderStep(variant, variantTemplates, variantTemplates)
    )
  if (populate) {
    const template: Record<string, unknown> = { ...step.template }
    template.id = step.template._id
    out.template = template
  } else delete out.template
  out.id = step._id
  return out
}

// As the environment's integrations say (a scenario's `data.integrations`); by default a new
// environment's: Novu's own in-app, email and SMS providers active, none for chat or push.
const byDefault = (channel: string) => DEFAULT_ACTIVE_CHANNELS.has(channel)

function integrationStatus(workflow: Workflow, active: (channel: string) => boolean) {
  const used = workflow.steps.map((s) => s.template.type).filter(isChannel)
  return {
    hasActiveIntegrations: used.every(active),
    channels: {
      in_app: { hasActiveIntegrations: active('in_app') },
      email: { hasActiveIntegrations: active('email'), hasPrimaryIntegrations: true },
      sms: { hasActiveIntegrations: active('sms'), hasPrimaryIntegrations: true },
      chat: { hasActiveIntegrations: active('chat') },
      push: { hasActiveIntegrations: active('push') },
    },
  }
}

/**
 * A workflow in the list: a lean read (no `id` virtuals), the group populated, step templates
 * reduced to `_id` and `type`, variants left out, and the integration status added.
 */
export function renderListItem(
  workflow: Workflow,
  group: NotificationGroup | undefined,
  hasActiveIntegration: (channel: string) => boolean = byDefault
) {
  const { steps, ...rest } = workflow
  return {
    ...rest,
    steps: steps.map(
      ({
        variants: _variants,
        controlValues: _values,
        providerOverrides: _po,
        template,
        ...step
      }) => ({
        ...step,
        template: { _id: template._id, type: template.type },
      })
    ),
    notificationGroup: group ?? null,
    workflowIntegrationStatus: integrationStatus(workflow, hasActiveIntegration),
  }
}
