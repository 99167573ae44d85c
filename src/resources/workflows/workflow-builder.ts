import { badRequest, CommandValidationError, httpError, InternalError } from '../../errors.js'
import { extractTriggerVariables } from './handlebars-variables.js'
import {
  castBoolean,
  castFilters,
  castMetadata,
  castString,
  defined,
  ownedDocument,
} from '../../workflow-model/document-cast.js'
import { buildTemplate, checkTemplate } from '../../workflow-model/message-template.js'
import { checkEditorContent } from '../../workflow-model/sanitize.js'
import { limitErrors } from '../../workflow-model/limit-errors.js'
import type {
  MessageTemplate,
  Workflow,
  WorkflowContext,
  WorkflowStep,
} from '../../workflow-model/workflows.types.js'
import type { TextMemo } from '../../http/text-memo.js'
import { isObj, type Obj } from '../../objects.js'

export type { WorkflowContext }

export interface WorkflowInput {
  name: string
  notificationGroupId: string
  steps: unknown[]
  notificationGroup?: unknown
  description?: unknown
  tags?: unknown
  active?: unknown
  critical?: unknown
  preferenceSettings?: unknown
  data?: unknown
  blueprintId?: unknown
}

/** The trigger identifier: the generation's slug of the name, made unique in the environment. */
function triggerIdentifier(name: string, ctx: WorkflowContext): string {
  const rules = ctx.generation.identifiers
  const identifier = rules.unique(rules.slug(name, ctx.rng), ctx.identifierTaken, ctx.rng)
  if (identifier === undefined) throw limitErrors.identifier(name)
  return identifier
}

function preferenceSettings(ctx: WorkflowContext, sent: unknown): Record<string, boolean> {
  const given = isObj(sent) ? sent : {}
  const out: Record<string, boolean> = {}
  for (const channel of ctx.generation.workflows.preferenceChannels)
    out[channel] = castBoolean(given[channel]) ?? true
  return out
}

/** A value in a template string, as upstream prints it; one that cannot print fails as a 500 does there. */
function asText(value: unknown): string {
  try {
    return `${value}`
  } catch {
    throw new InternalError('a value in the request cannot be turned into text')
  }
}

const variantsOf = (step: Obj) => (Array.isArray(step.variants) ? step.variants.filter(isObj) : [])

function checkVariantConditions(steps: Obj[]) {
  for (const variant of steps.flatMap(variantsOf)) {
    const filters = Array.isArray(variant.filters) ? variant.filters : []
    if (!filters.some((f) => isObj(f) && Array.isArray(f.children) && f.children.length > 0))
      throw badRequest(
        `Variant conditions are required, variant name ${asText(variant.name)} id ${asText(variant._id)}`
      )
  }
}

function checkStep(step: Obj) {
  if (!isObj(step.template)) throw badRequest('Unexpected error: message template is missing')
  checkTemplate(step.template)
}

function checkVariantTemplates(step: Obj) {
  for (const variant of variantsOf(step)) {
    if (!isObj(variant.template))
      throw badRequest('Unexpected error: variants message template is missing')
    checkTemplate(variant.template)
  }
}

/**
 * The trigger variables of a shared body's steps (http/route.ts validates such a body once per
 * text and freezes it): the same frozen steps always extract to the same, or fail the same way,
 * so a body sent again skips the walk of its texts. Kept on the text's memo (text-memo.ts), by
 * the frozen steps; only extractions that succeeded.
 */
function triggerVariables(sent: readonly unknown[], steps: Obj[], memo: TextMemo | undefined) {
  if (!memo || !Object.isFrozen(sent)) return extractTriggerVariables(steps)
  let found = memo.derived.get(sent) as ReturnType<typeof extractTriggerVariables> | undefined
  if (!found) memo.derived.set(sent, (found = extractTriggerVariables(steps)))
  return found
}

/**
 * Upstream's checks, in the order its use case meets them. 2024-10: variant conditions, the
 * first step's template, the trigger variables of every step, then the remaining templates.
 * Since 2025 the step limit and variant conditions come first, every template is created
 * before the variables are read.
 */
function checkSteps(
  ctx: WorkflowContext,
  steps: Obj[],
  sent: readonly unknown[],
  memo: TextMemo | undefined
) {
  const rules = ctx.generation.workflows
  if (rules.maxSteps !== undefined && steps.length > rules.maxSteps)
    throw limitErrors.steps(rules.maxSteps, steps.length)
  checkVariantConditions(steps)
  if (rules.limitsWorkflows && ctx.maxWorkflows > 0) {
    const count = ctx.workflowCount()
    if (count >= ctx.maxWorkflows) throw limitErrors.workflows(count, ctx.maxWorkflows)
  }
  if (rules.createOrder === 'templates-then-variables') {
    steps.forEach((step) => {
      checkStep(step)
      checkVariantTemplates(step)
    })
  } else {
    if (steps[0]) checkStep(steps[0])
  }
  const variables = triggerVariables(sent, steps, memo)
  if (rules.createOrder === 'first-step-then-variables')
    steps.forEach((step, index) => {
      if (index > 0) checkStep(step)
      checkVariantTemplates(step)
    })
  // The mock's own budget: editor HTML across the request is capped before any of it is sanitised.
  checkEditorContent(steps)
  return variables
}

/** A step as upstream's schema stores it, in its field order, with the populated template. */
function storedStep(
  step: Obj,
  template: MessageTemplate,
  parentId: string | null,
  ctx: WorkflowContext,
  variants?: Obj[]
) {
  const replyCallback = isObj(step.replyCallback)
    ? defined({
        active: castBoolean(step.replyCallback.active),
        url: castString(step.replyCallback.url),
      })
    : undefined
  return defined({
    _id: template._id,
    active: castBoolean(step.active) ?? true,
    replyCallback,
    shouldStopOnFail: castBoolean(step.shouldStopOnFail) ?? false,
    uuid: castString(step.uuid),
    stepId: castString(step.stepId),
    name: castString(step.name),
    type: 'REGULAR',
    filters: castFilters(step.filters, ctx.newId),
    _templateId: template._id,
    _parentId: parentId,
    metadata: castMetadata(step.metadata),
    variants,
    template,
  })
}

/** Each step's template is created, then its variants' (chained by _parentId), then the next step's. */
function buildSteps(ctx: WorkflowContext, steps: Obj[], now: string): WorkflowStep[] {
  const built: Obj[] = []
  for (const step of steps) {
    const template = buildTemplate(ctx, step.template as Obj, now)
    const variants: Obj[] = []
    for (const variant of variantsOf(step)) {
      const previous = (variants.at(-1)?._id as string | undefined) ?? null
      variants.push(
        storedStep(variant, buildTemplate(ctx, variant.template as Obj, now), previous, ctx)
      )
    }
    const parent = (built.at(-1)?._id as string | undefined) ?? null
    built.push(storedStep(step, template, parent, ctx, variants))
  }
  return built as WorkflowStep[]
}

/** Upstream's blueprint path: the group is found or created by name, feed ids are dropped. */
function applyBlueprint(ctx: WorkflowContext, input: WorkflowInput): WorkflowInput {
  if (input.blueprintId === undefined || input.blueprintId === null) return input
  const name = isObj(input.notificationGroup) ? input.notificationGroup.name : undefined
  if (!name || !ctx.groupNamed) throw httpError(404, 'Notification group was not provided')
  const steps = input.steps.map((s) =>
    isObj(s) && isObj(s.template) ? { ...s, template: { ...s.template, feedId: undefined } } : s
  )
  // The blueprint command is built anew, without the custom data.
  return { ...input, steps, notificationGroupId: ctx.groupNamed(asText(name)), data: undefined }
}

/**
 * Builds a workflow document the way upstream's create use case does, in the environment's
 * generation. Throws upstream's errors; stores nothing (create-workflow.ts applies it).
 */
export function buildWorkflow(
  ctx: WorkflowContext,
  sent: WorkflowInput,
  now: string,
  origin = ctx.generation.workflows.origin('/v1/workflows'),
  /** The memo of the body's text, when it has one (create-workflow.ts). */
  memo?: TextMemo
): Workflow {
  const rules = ctx.generation.workflows
  const violations = rules.createViolations(sent)
  if (violations.length) throw new CommandValidationError(rules.createCommand, violations)
  const input = applyBlueprint(ctx, sent)
  const steps = input.steps.map((s) => (isObj(s) ? s : {}))
  const extracted = checkSteps(ctx, steps, input.steps, memo)
  const identifier = triggerIdentifier(input.name, ctx)
  const builtSteps = buildSteps(ctx, steps, now)
  const active = input.active === true
  const variable = (v: { name: string; type: string }) => ({
    name: v.name,
    type: v.type,
    _id: ctx.newId(),
  })
  const preferences = preferenceSettings(ctx, input.preferenceSettings)
  return {
    _id: ctx.newId(),
    name: input.name,
    ...(input.description !== undefined ? { description: input.description as string } : {}),
    active,
    type: 'REGULAR',
    draft: !active,
    critical: input.critical === true,
    isBlueprint: false,
    // Mongoose casts the id to an ObjectId, which prints in lower case.
    _notificationGroupId: input.notificationGroupId.toLowerCase(),
    tags: Array.isArray(input.tags) ? input.tags.map((t) => castString(t) ?? '') : [],
    triggers: [
      {
        type: 'event',
        identifier,
        variables: extracted.variables.map(variable),
        reservedVariables: extracted.reservedVariables.map((r) => ({
          type: r.type,
          variables: r.variables.map(variable),
          _id: ctx.newId(),
        })),
        subscriberVariables: extracted.subscriberVariables.map((name) => ({
          name,
          _id: ctx.newId(),
        })),
        _id: ctx.newId(),
      },
    ],
    steps: builtSteps,
    preferenceSettings: preferences as unknown as Workflow['preferenceSettings'],
    ...(input.data ? { data: input.data } : {}),
    ...(input.blueprintId !== undefined ? { blueprintId: input.blueprintId } : {}),
    origin,
    ...rules.extraFields(input, preferences),
    ...ownedDocument(ctx, now),
  }
}
