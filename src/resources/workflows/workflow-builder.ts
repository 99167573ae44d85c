import slugify from 'slugify'
import { badRequest } from '../../errors.js'
import { isEnum, isMongoId } from '../../http/rules.js'
import type { Rng } from '../../tenancy/prng.js'
import { extractTriggerVariables } from './template-variables.js'
import {
  STEP_TYPES,
  type MessageTemplate,
  type PreferenceSettings,
  type Workflow,
  type WorkflowStep,
} from './workflows.types.js'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

/** What building a workflow needs from its environment. */
export interface WorkflowContext {
  _environmentId: string
  _organizationId: string
  _userId: string
  _layoutId: string
  newId: () => string
  rng: Rng
  identifierTaken: (identifier: string) => boolean
}

export interface WorkflowInput {
  name: string
  notificationGroupId: string
  steps: unknown[]
  description?: unknown
  tags?: unknown
  active?: unknown
  critical?: unknown
  preferenceSettings?: unknown
  data?: unknown
  blueprintId?: unknown
}

const CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push'] as const
const SHORTID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-'

function shortId(rng: Rng): string {
  let out = ''
  for (let i = 0; i < 9; i++) out += SHORTID_ALPHABET[Math.floor(rng() * 64)]
  return out
}

/** Upstream slugifies the name and, on a collision, appends one shortid (never a 409). */
export function triggerIdentifier(name: string, ctx: WorkflowContext): string {
  const slug = slugify(name, { lower: true, strict: true })
  return ctx.identifierTaken(slug) ? `${slug}-${shortId(ctx.rng)}` : slug
}

function preferenceSettings(sent: unknown): PreferenceSettings {
  const given = isObj(sent) ? sent : {}
  const out = {} as PreferenceSettings
  for (const channel of CHANNELS) {
    const value = given[channel]
    out[channel] = typeof value === 'boolean' ? value : true
  }
  return out
}

const TEMPLATE_FIELDS = ['name', 'subject', 'title', 'content', 'contentType', 'cta', 'preheader', 'senderName', 'actor'] as const

function checkTemplate(template: Obj) {
  const problems = [
    template.type === undefined || template.type === null ? 'type should not be null or undefined' : undefined,
    isEnum(STEP_TYPES)(template.type, 'type'),
  ].filter((m): m is string => m !== undefined)
  if (problems.length) throw badRequest(problems)
  if (isObj(template.cta) && template.cta.action === '') throw badRequest('Please provide a valid CTA action')
}

function buildTemplate(ctx: WorkflowContext, template: Obj, now: string): MessageTemplate {
  checkTemplate(template)
  const doc: Obj = { _id: ctx.newId(), type: template.type, active: true }
  for (const key of TEMPLATE_FIELDS) if (template[key] !== undefined) doc[key] = template[key]
  doc.variables = Array.isArray(template.variables)
    ? template.variables.map((v) => ({ ...(isObj(v) ? v : {}), required: isObj(v) && v.required === true, _id: ctx.newId() }))
    : []
  doc._feedId = template.feedId ?? null
  const layout = template.layoutId ?? null
  doc._layoutId = template.type === 'email' && !layout ? ctx._layoutId : layout
  Object.assign(doc, {
    _environmentId: ctx._environmentId,
    _organizationId: ctx._organizationId,
    _creatorId: ctx._userId,
    deleted: false,
    createdAt: now,
    updatedAt: now,
    __v: 0,
  })
  return doc as MessageTemplate
}

function buildFilters(ctx: WorkflowContext, filters: unknown): Obj[] {
  if (!Array.isArray(filters)) return []
  return filters.filter(isObj).map((filter) => ({
    ...filter,
    children: Array.isArray(filter.children)
      ? filter.children.filter(isObj).map((child) => ({ ...child, _id: ctx.newId() }))
      : [],
    _id: ctx.newId(),
  }))
}

function buildStepBody(ctx: WorkflowContext, step: Obj, template: MessageTemplate) {
  const out: Obj = {
    _id: template._id,
    _templateId: template._id,
    active: typeof step.active === 'boolean' ? step.active : true,
    shouldStopOnFail: typeof step.shouldStopOnFail === 'boolean' ? step.shouldStopOnFail : false,
  }
  for (const key of ['uuid', 'name', 'stepId', 'replyCallback'] as const)
    if (step[key] !== undefined) out[key] = step[key]
  out.type = 'REGULAR'
  out.filters = buildFilters(ctx, step.filters)
  const metadata = isObj(step.metadata) ? step.metadata : {}
  out.metadata = { ...metadata, timed: { weekDays: [], monthDays: [], ...(isObj(metadata.timed) ? metadata.timed : {}) } }
  return out
}

function buildVariants(ctx: WorkflowContext, variants: unknown, now: string): Obj[] {
  if (!Array.isArray(variants)) return []
  return variants.filter(isObj).map((variant) => {
    const conditions = Array.isArray(variant.filters) ? variant.filters : []
    const hasCondition = conditions.some((f) => isObj(f) && Array.isArray(f.children) && f.children.length > 0)
    if (!hasCondition)
      throw badRequest(`Variant conditions are required, variant name ${variant.name} id ${variant._id}`)
    if (!isObj(variant.template)) throw badRequest('Unexpected error: variants message template is missing')
    const template = buildTemplate(ctx, variant.template, now)
    return { ...buildStepBody(ctx, variant, template), template }
  })
}

function buildSteps(ctx: WorkflowContext, steps: unknown[], now: string): WorkflowStep[] {
  const built: WorkflowStep[] = []
  for (const raw of steps) {
    const step = isObj(raw) ? raw : {}
    if (!isObj(step.template)) throw badRequest('Unexpected error: message template is missing')
    const template = buildTemplate(ctx, step.template, now)
    const body = buildStepBody(ctx, step, template)
    const parent = built.at(-1)?._id ?? null
    const variants = buildVariants(ctx, step.variants, now)
    built.push({ ...body, _parentId: parent, variants, template } as unknown as WorkflowStep)
  }
  return built
}

/**
 * Builds a workflow document the way upstream's create use case does: command checks, trigger
 * variables from the step texts, a unique trigger identifier, one message template per step.
 * Throws upstream's 400s; nothing is stored here.
 */
export function buildWorkflow(ctx: WorkflowContext, input: WorkflowInput, now: string): Workflow {
  const groupProblem = isMongoId(input.notificationGroupId, 'notificationGroupId')
  if (groupProblem) throw badRequest([groupProblem])
  const steps = input.steps.map((s) => (isObj(s) ? s : {}))
  const extracted = extractTriggerVariables(steps)
  const identifier = triggerIdentifier(input.name, ctx)
  const builtSteps = buildSteps(ctx, steps, now)
  const active = input.active === true
  const workflow: Workflow = {
    _id: ctx.newId(),
    name: input.name,
    ...(input.description !== undefined ? { description: input.description as string } : {}),
    active,
    type: 'REGULAR',
    draft: !active,
    critical: input.critical === true,
    isBlueprint: false,
    _notificationGroupId: input.notificationGroupId,
    tags: Array.isArray(input.tags) ? input.tags.map(String) : [],
    triggers: [
      {
        type: 'event',
        identifier,
        variables: extracted.variables.map((v) => ({ ...v, _id: ctx.newId() })),
        reservedVariables: extracted.reservedVariables,
        subscriberVariables: extracted.subscriberVariables.map((name) => ({ name, _id: ctx.newId() })),
        _id: ctx.newId(),
      },
    ],
    steps: builtSteps,
    preferenceSettings: preferenceSettings(input.preferenceSettings),
    ...(input.data !== undefined ? { data: input.data } : {}),
    ...(input.blueprintId !== undefined ? { blueprintId: input.blueprintId } : {}),
    origin: 'novu-cloud',
    _environmentId: ctx._environmentId,
    _organizationId: ctx._organizationId,
    _creatorId: ctx._userId,
    deleted: false,
    createdAt: now,
    updatedAt: now,
    __v: 0,
  }
  return workflow
}
