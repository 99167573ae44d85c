import { SETTINGS_ORDER_WITH_TOOL, WORKFLOW_PREFERENCES_ORDER } from '../../channels.js'
/**
 * The /v2/workflows use cases, in the order upstream meets each check: the controller's
 * UpsertWorkflowCommand, the steps (ids, issues), CreateWorkflowCommandV0 or its update twin,
 * the resource limits, then the write. Everything is built before anything is stored, so a
 * refused request changes nothing. v2 workflows live in the v1 store, as upstream keeps both in
 * one collection: `type: "BRIDGE"`, `origin: "novu-cloud"`, the control values on their steps.
 */
import { CommandValidationError, InternalError, objectError, httpError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import { buildTemplate } from '../../workflow-model/message-template.js'
import {
  MAX_DOCUMENT_DEPTH,
  nestingDepth,
  ownedDocument,
} from '../../workflow-model/document-cast.js'
import { limitErrors } from '../../workflow-model/limit-errors.js'
import type { Workflow, WorkflowStep } from '../../workflow-model/workflows.types.js'
import {
  commandViolations,
  validateObject,
  type ClassRules,
} from '../../validation/class-validation.js'
import { isObj, type Obj } from '../../objects.js'
import {
  sharedControlSchemas,
  sharedControlsDepth,
  type ControlSchemas,
} from './control-schemas.js'
import {
  CREATE_WORKFLOW_COMMAND_V0,
  PATCH_WORKFLOW_COMMAND,
  UPDATE_WORKFLOW_COMMAND_V0,
  UPSERT_WORKFLOW_COMMAND,
} from './workflows-v2.dto.js'
import {
  computeWorkflowStatus,
  isMailyDocument,
  typeStepIssues,
  type StepIssues,
} from './step-issues.js'
import { isInternalId, parseSlugId } from './slug-id.js'
import {
  openVariables,
  sharedVariableSchema,
  type SharedVariableSchema,
  type StepForVariables,
} from './variables.js'
import { textMemo } from '../../http/text-memo.js'

export interface WorkflowPreferences {
  all: Obj
  channels: Record<string, Obj>
}

/** Upstream's buildWorkflowPreferences: the input's channels, else its `all.enabled`, else on. */
export function buildPreferences(input: unknown): WorkflowPreferences {
  const defaults = (): WorkflowPreferences => ({
    all: { enabled: true, readOnly: false },
    channels: Object.fromEntries(WORKFLOW_PREFERENCES_ORDER.map((c) => [c, { enabled: true }])),
  })
  if (!input) return defaults()
  const given = input as { all?: Obj; channels?: Record<string, unknown> }
  const base = defaults()
  const all = isObj(given.all) ? given.all : undefined
  const fallback = all?.enabled !== undefined ? { enabled: all.enabled } : {}
  const channels: Record<string, Obj> = {}
  for (const channel of WORKFLOW_PREFERENCES_ORDER) {
    const own = given.channels?.[channel]
    channels[channel] = {
      ...base.channels[channel],
      ...fallback,
      ...(own !== null && typeof own === 'object' ? own : {}),
    }
  }
  return { ...base, all: { ...base.all, ...(all ?? {}) }, channels }
}

const channelSettings = (preferences: WorkflowPreferences) =>
  Object.fromEntries(SETTINGS_ORDER_WITH_TOOL.map((c) => [c, preferences.channels[c]?.enabled]))

/** The 404 of every lookup, naming the value the pipe passed on. */
const workflowNotFound = (workflowId: string) =>
  objectError(404, { message: 'Workflow cannot be found', workflowId })

/** GetWorkflowByIds: a canonical id finds by id, anything else by trigger identifier. */
export function findWorkflow(env: Environment, pathValue: string): Workflow {
  const value = parseSlugId(pathValue)
  const workflow = isInternalId(value)
    ? env.workflows.get(value)
    : env.workflows.byIdentifier(value)
  if (!workflow) throw workflowNotFound(value)
  return workflow
}

/**
 * Upstream's command validation. With `passed` (the checks a body's text passed before, when the
 * data checked is made of that body alone) a text checked once is not checked again: the same
 * text validates to the same body, so to the same verdict.
 */
function checkCommand(command: string, rules: ClassRules, data: Obj, passed?: Set<string>) {
  if (passed?.has(command)) return
  const violations = commandViolations(validateObject(data, rules))
  if (violations.length) throw new CommandValidationError(command, violations)
  passed?.add(command)
}

/** The controller's step shape: values always present (null when not sent). */
function normalizeSteps(steps: unknown[]): Obj[] {
  return steps.map((raw) => {
    const step = raw as Obj
    return {
      ...step,
      controlValues: step.controlValues ?? null,
      providerOverrides: 'providerOverrides' in step ? (step.providerOverrides ?? null) : undefined,
    }
  })
}

const environmentType = (env: Environment) => (env._parentId ? 'prod' : 'dev')
const environmentName = (env: Environment) => (env._parentId ? 'Production' : 'Development')

export interface VariableContext {
  steps: StepForVariables[]
  stepIndex: number
  payloadSchema: unknown
}

/**
 * The variables one step may use (the steps before it, the payload schema, the environment),
 * with their JSON text: shared by every step with the same inputs, so never to be changed.
 */
export function variablesFor(env: Environment, context: VariableContext): SharedVariableSchema {
  return sharedVariableSchema({
    previousSteps: context.steps.slice(0, context.stepIndex),
    payloadSchema: context.payloadSchema,
    environmentName: environmentName(env),
    environmentType: environmentType(env),
  })
}

/** What a stored step's template says about it. */
const stepType = (step: WorkflowStep) => step.template?.type as string | undefined
const storedValues = (step: WorkflowStep) =>
  isObj(step.controlValues) ? (step.controlValues as Obj) : undefined

export const forVariables = (step: WorkflowStep): StepForVariables => ({
  stepId: step.stepId as string | undefined,
  type: stepType(step),
  responseBodySchema: storedValues(step)?.responseBodySchema,
})

/** The payload schema a stored workflow's variables read. */
export const storedPayloadSchema = (workflow: Workflow) =>
  workflow.steps.length === 0
    ? { type: 'object', properties: {}, additionalProperties: true }
    : isObj(workflow.payloadSchema)
      ? workflow.payloadSchema
      : openVariables()

interface PlannedStep {
  name: unknown
  type: string
  stepId: string
  issues: StepIssues
  controls: ControlSchemas
  /** The existing step a PUT kept (matched by `_id`). */
  existing?: WorkflowStep
}

const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz'
/** Upstream's shortId(): 8 characters of [0-9a-z]. */
export function shortId(env: Environment): string {
  let out = ''
  for (let i = 0; i < 8; i++)
    out += LOWER_ALPHANUMERIC[Math.floor(env.rng() * LOWER_ALPHANUMERIC.length)]
  return out
}

/** `slugifyOrRandom(name)`, then `-` + shortId() while another step has the id (5 tries). */
function uniqueStepId(env: Environment, name: unknown, taken: (string | undefined)[]): string {
  const slug = env.generation.identifiers.slug(String(name), env.rng)
  let candidate = slug
  let attempts = 0
  while (attempts < 5 && taken.includes(candidate)) {
    candidate = `${slug}-${shortId(env)}`
    attempts += 1
  }
  if (taken.includes(candidate))
    throw objectError(400, { message: 'Failed to generate unique stepId', stepId: candidate })
  return candidate
}

/**
 * Upstream's buildSteps: each step's id (kept, given, or made from its name) and its issues,
 * checked against the values sent (or, for a kept step sent without values, its stored ones).
 */
function planSteps(
  env: Environment,
  workflowDto: Obj,
  origin: string,
  existing: Workflow | undefined
): PlannedStep[] {
  const steps = workflowDto.steps as Obj[]
  const kept = (step: Obj) =>
    '_id' in step && existing
      ? existing.steps.find((s) => !!step._id && s._templateId === step._id)
      : undefined
  const temp: string[] = []
  const stepIds = steps.map((step) => {
    const id =
      (kept(step)?.stepId as string | undefined) ||
      (step.stepId as string | undefined) ||
      uniqueStepId(
        env,
        step.name,
        existing ? existing.steps.map((s) => s.stepId as string | undefined) : temp
      )
    temp.push(id)
    return id
  })
  const optimistic: StepForVariables[] = steps.map((step, i) => ({
    stepId: stepIds[i],
    type: step.type as string,
    responseBodySchema: isObj(step.controlValues)
      ? step.controlValues.responseBodySchema
      : undefined,
  }))
  // Existing steps first, then the new ones, as upstream lists them for the variable schema.
  const effective: StepForVariables[] = existing
    ? [
        ...existing.steps.map(forVariables),
        ...optimistic.filter((o) => !existing.steps.some((s) => s.stepId === o.stepId)),
      ]
    : optimistic
  const payloadSchema = isObj(workflowDto.payloadSchema)
    ? workflowDto.payloadSchema
    : existing
      ? storedPayloadSchema(existing)
      : openVariables()
  return steps.map((step, index) => {
    const type = step.type as string
    const existingStep = kept(step)
    const controls = sharedControlSchemas(type)
    const sent = isObj(step.controlValues) ? step.controlValues : undefined
    const values = sent ?? (existingStep ? storedValues(existingStep) : undefined)
    // A kept step sees the steps before it; a new one all of them (existing ones come first).
    const stepIndex = existingStep ? existing!.steps.indexOf(existingStep) : effective.length
    const issues = typeStepIssues({
      stepType: type,
      values,
      dashboard: origin === 'novu-cloud',
      controlSchema: controls.schema,
      variables: variablesFor(env, {
        steps: effective,
        stepIndex,
        payloadSchema,
      }).schema,
    })
    return {
      name: step.name,
      type,
      stepId: stepIds[index] as string,
      issues,
      controls,
      existing: existingStep,
    }
  })
}

/**
 * The request step a written step takes its values from: one sent with `_id` matches by
 * template id, one with `stepId` by step id, any other by name (the first match wins).
 */
const matchingStep = (step: WorkflowStep, sent: Obj[]) =>
  sent.find((candidate) => {
    if ('_id' in candidate) return candidate._id === step._templateId
    if ('stepId' in candidate) return candidate.stepId === step.stepId
    return candidate.name === step.name
  })

/** The values stored for a written step (null: none), without their provider overrides. */
function valuesFor(step: WorkflowStep, sent: Obj[]): Obj | null {
  const values = matchingStep(step, sent)?.controlValues
  if (!isObj(values)) return null
  const { providerOverrides: _dropped, ...rest } = values
  const out: Obj = { ...rest }
  if (emptiesBody(stepType(step), out)) out.body = ''
  return out
}

/** Dashboard emails: a block-editor body that is no Maily document is emptied. */
const emptiesBody = (type: unknown, values: Obj) =>
  type === 'email' && values.editorType === 'block' && !isMailyDocument(values.body)

/** The positions of the sent steps whose email body the block editor empties (for a note). */
export function emptiedEmailBodies(steps: unknown): number[] {
  if (!Array.isArray(steps)) return []
  const out: number[] = []
  steps.forEach((step: unknown, index) => {
    if (!isObj(step) || !isObj(step.controlValues)) return
    const values = step.controlValues
    if (typeof values.body === 'string' && values.body.trim() && emptiesBody(step.type, values))
      out.push(index)
  })
  return out
}

/** The provider overrides a chat or tool step was sent with (absent: unchanged, null: none). */
function overridesFor(step: WorkflowStep, sent: Obj[]): Obj | null | undefined {
  const match = matchingStep(step, sent)
  if (!match || match.providerOverrides === undefined) return undefined
  return isObj(match.providerOverrides) ? match.providerOverrides : null
}

/** The step documents, chained by `_parentId`, each with its template (new or kept). */
function buildSteps(env: Environment, planned: PlannedStep[], now: string): WorkflowStep[] {
  const ctx = env.workflowContext()
  const out: WorkflowStep[] = []
  for (const plan of planned) {
    const template = plan.existing
      ? {
          ...plan.existing.template,
          type: plan.type,
          name: plan.name,
          controls: plan.controls,
          updatedAt: now,
        }
      : {
          ...buildTemplate(ctx, { type: plan.type, name: plan.name, content: '' }, now),
          controls: plan.controls,
        }
    const parent = out.at(-1)?._id ?? null
    out.push({
      _id: template._id,
      _templateId: template._id,
      filters: [],
      _parentId: parent,
      active: true,
      shouldStopOnFail: false,
      name: plan.name,
      stepId: plan.stepId,
      issues: plan.issues,
      type: 'REGULAR',
      template: template as WorkflowStep['template'],
    })
  }
  return out
}

/** Control values and provider overrides, as the request leaves them after the write. */
function applyValues(steps: WorkflowStep[], sent: Obj[], previous?: Workflow) {
  for (const step of steps) {
    const values = valuesFor(step, sent)
    if (values) step.controlValues = values
    const before = previous?.steps.find((s) => s._templateId === step._templateId)
    const overrides = overridesFor(step, sent)
    const kept = overrides === undefined ? before?.providerOverrides : overrides
    if (isObj(kept) && Object.keys(kept).length) step.providerOverrides = kept
  }
}

/**
 * Upstream copies a body through class-transformer recursively: one nested thousands of levels
 * deep overflows its stack (a 500) before anything is checked. The mock stops there too,
 * rather than recursing into it.
 */
const RECURSION_LIMIT = 2000
function checkRecursion(body: unknown) {
  if (nestingDepth(body, RECURSION_LIMIT) > RECURSION_LIMIT)
    throw new InternalError('Maximum call stack size exceeded')
}

function checkDepth(document: unknown) {
  // MongoDB refuses documents nested deeper than 100 levels: upstream answers 500.
  if (nestingDepth(document, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH)
    throw new InternalError('BSON document nesting is deeper than 100 levels')
}

/**
 * checkDepth for a workflow: its steps' controls, most of its objects, are left out of the walk
 * where they are their type's shared ones, which nest far less deep than the limit four levels
 * down (workflow, steps, step, template).
 */
function checkWorkflowDepth(document: Workflow) {
  const isShared = (step: WorkflowStep) => {
    if (!isObj(step)) return false
    const type = stepType(step)
    const depth =
      typeof type === 'string' ? sharedControlsDepth(type, step.template?.controls) : undefined
    return depth !== undefined && 4 + depth <= MAX_DOCUMENT_DEPTH
  }
  const steps = Array.isArray(document.steps)
    ? document.steps.map((step) =>
        isShared(step) ? { ...step, template: { ...step.template, controls: null } } : step
      )
    : document.steps
  checkDepth({ ...document, steps })
}

/** The environment's `General` group, which every dashboard workflow is filed under. */
const generalGroup = (env: Environment) => env.groups.list().find((g) => g.name === 'General')?._id

/**
 * POST /v2/workflows: a new dashboard workflow, its `workflowId` kept (suffixed when taken).
 * `raw` is the body's text, whose memo keeps the command checks it passed.
 */
export function createWorkflowV2(env: Environment, dto: Obj, raw?: string): Workflow {
  return env.workflows.add(workflowV2Document(env, dto, textMemo(raw)?.passed))
}

/**
 * The document POST /v2/workflows would store, every check made, nothing stored yet. `passed`:
 * the checks `dto`'s text passed before (the route's body schema is the same in every generation).
 */
export function workflowV2Document(env: Environment, dto: Obj, passed?: Set<string>): Workflow {
  checkRecursion(dto)
  const steps = normalizeSteps(dto.steps as unknown[])
  const workflowDto: Obj = { ...dto, steps, origin: 'novu-cloud' }
  checkCommand('UpsertWorkflowCommand', UPSERT_WORKFLOW_COMMAND, { workflowDto }, passed)
  const active = (dto.active as boolean | undefined) ?? true
  const planned = planSteps(env, workflowDto, 'novu-cloud', undefined)
  const preferences = dto.preferences as { user?: unknown; workflow?: unknown } | undefined
  const userPreferences = preferences?.user ? buildPreferences(preferences.user) : null
  const defaultPreferences = buildPreferences(preferences?.workflow)
  const command: Obj = {
    name: dto.name,
    description: (dto.description as string | undefined) || '',
    tags: (dto.tags as string[] | undefined) || [],
    userPreferences,
    defaultPreferences,
  }
  checkCommand('CreateWorkflowCommandV0', CREATE_WORKFLOW_COMMAND_V0, command, passed)
  const rules = env.generation.workflows
  if (rules.maxSteps !== undefined && planned.length > rules.maxSteps)
    throw limitErrors.steps(rules.maxSteps, planned.length)
  const ctx = env.workflowContext()
  if (rules.limitsWorkflows && ctx.maxWorkflows > 0) {
    const count = ctx.workflowCount()
    if (count >= ctx.maxWorkflows) throw limitErrors.workflows(count, ctx.maxWorkflows)
  }
  const identifier = env.generation.identifiers.unique(
    dto.workflowId as string,
    ctx.identifierTaken,
    env.rng
  )
  if (identifier === undefined) throw limitErrors.identifier(dto.name as string)
  const now = env.now()
  const builtSteps = buildSteps(env, planned, now)
  applyValues(builtSteps, steps)
  const hasSchema = !!dto.payloadSchema
  const group = generalGroup(env)
  const workflow: Workflow = {
    _id: env.newId(),
    name: dto.name as string,
    description: command.description as string,
    active,
    type: 'BRIDGE',
    draft: true,
    critical: false,
    isBlueprint: false,
    ...(group ? { _notificationGroupId: group } : {}),
    tags: command.tags as string[],
    triggers: [
      {
        type: 'event',
        identifier,
        variables: [],
        reservedVariables: [],
        subscriberVariables: [],
        _id: env.newId(),
      },
    ],
    steps: builtSteps,
    preferenceSettings: channelSettings(userPreferences ?? buildPreferences(undefined)) as Record<
      string,
      boolean
    >,
    origin: 'novu-cloud',
    status: computeWorkflowStatus(active, builtSteps),
    severity: (dto.severity as string | undefined) ?? 'none',
    agent: isObj(dto.agent) ? agentOf(dto.agent) : null,
    _updatedBy: env._userId,
    payloadSchema: hasSchema
      ? dto.payloadSchema
      : { type: 'object', additionalProperties: true, properties: {} },
    // With a schema and no flag, the schema's default (false); without a schema, true.
    validatePayload: (dto.validatePayload as boolean | undefined) ?? !hasSchema,
    isTranslationEnabled: false,
    lastTriggeredAt: null,
    lastPublishedAt: null,
    userPreferences,
    defaultPreferences,
    ...ownedDocument(env, now),
  } as unknown as Workflow
  checkWorkflowDepth(workflow)
  return workflow
}

/** The agent as Mongoose keeps it: its identifier and providers, nothing else. */
const agentOf = (agent: Obj) => ({
  identifier: agent.identifier,
  ...(agent.providers !== undefined ? { providers: agent.providers } : {}),
})

/** PUT /v2/workflows/{workflowId}: the workflow's steps and fields replaced; origin and id kept. */
export function updateWorkflowV2(env: Environment, pathValue: string, dto: Obj): Workflow {
  checkRecursion(dto)
  const steps = normalizeSteps(dto.steps as unknown[])
  checkCommand('UpsertWorkflowCommand', UPSERT_WORKFLOW_COMMAND, {
    workflowDto: { ...dto, steps },
  })
  const existing = findWorkflow(env, pathValue)
  const origin = (existing.origin as string | undefined) ?? 'novu-cloud'
  const workflowDto: Obj = { ...dto, steps, origin }
  const planned = planSteps(env, workflowDto, origin, existing)
  const preferences = dto.preferences as { user?: unknown; workflow?: unknown } | undefined
  const userPreferences = preferences?.user ? buildPreferences(preferences.user) : null
  const defaultPreferences = buildPreferences(preferences?.workflow)
  const active = (dto.active as boolean | undefined) ?? true
  checkCommand('UpdateWorkflowCommandV0', UPDATE_WORKFLOW_COMMAND_V0, {
    name: dto.name,
    description: dto.description,
    tags: dto.tags,
    userPreferences,
    defaultPreferences,
  })
  const rules = env.generation.workflows
  if (rules.maxSteps !== undefined && planned.length > rules.maxSteps)
    throw limitErrors.steps(rules.maxSteps, planned.length)
  const now = env.now()
  const builtSteps = buildSteps(env, planned, now)
  applyValues(builtSteps, steps, existing)
  const changes: Obj = {
    ...(dto.name ? { name: dto.name } : {}),
    active,
    ...(dto.severity !== undefined ? { severity: dto.severity } : {}),
    ...(dto.agent !== undefined
      ? { agent: isObj(dto.agent) ? agentOf(dto.agent) : dto.agent }
      : {}),
    ...(dto.description !== undefined && dto.description !== null
      ? { description: dto.description }
      : {}),
    steps: builtSteps,
    ...(dto.tags ? { tags: dto.tags } : {}),
    ...(dto.payloadSchema !== undefined ? { payloadSchema: dto.payloadSchema } : {}),
    ...(dto.validatePayload !== undefined ? { validatePayload: dto.validatePayload } : {}),
    status: computeWorkflowStatus(active, builtSteps),
    _updatedBy: env._userId,
    userPreferences,
    defaultPreferences,
    updatedAt: now,
  }
  checkWorkflowDepth({ ...existing, ...changes } as Workflow)
  return env.workflows.update(existing, changes)
}

/** PATCH /v2/workflows/{workflowId}: only the fields sent (and not null) change; status always. */
export function patchWorkflowV2(env: Environment, pathValue: string, dto: Obj): Workflow {
  const workflowIdOrInternalId = parseSlugId(pathValue)
  checkCommand('PatchWorkflowCommand', PATCH_WORKFLOW_COMMAND, { workflowIdOrInternalId, ...dto })
  const existing = findWorkflow(env, pathValue)
  const changes: Obj = {}
  for (const field of ['active', 'payloadSchema', 'validatePayload', 'name', 'description', 'tags'])
    if (dto[field] !== undefined && dto[field] !== null) changes[field] = dto[field]
  const transient = { ...existing, ...changes } as Workflow
  let steps = existing.steps
  const schemaChanged =
    changes.payloadSchema !== undefined &&
    JSON.stringify(existing.payloadSchema) !== JSON.stringify(changes.payloadSchema)
  if (schemaChanged) {
    const origin = (existing.origin as string | undefined) ?? 'external'
    const all = existing.steps.map(forVariables)
    steps = existing.steps.map((step, index) => {
      const type = stepType(step)
      if (!step._templateId || !type) return step
      const issues = typeStepIssues({
        stepType: type,
        values: storedValues(step),
        dashboard: origin === 'novu-cloud',
        controlSchema: sharedControlSchemas(type).schema,
        variables: variablesFor(env, {
          steps: all,
          stepIndex: index,
          payloadSchema: storedPayloadSchema(transient),
        }).schema,
      })
      return { ...step, issues }
    })
    changes.steps = steps
  }
  changes.status = computeWorkflowStatus((transient.active as boolean | undefined) ?? false, steps)
  changes.updatedAt = env.now()
  // The stored workflow passed the check; only a new schema, steps or tags can nest deeper.
  if (
    changes.payloadSchema !== undefined ||
    changes.steps !== undefined ||
    changes.tags !== undefined
  )
    checkWorkflowDepth({ ...existing, ...changes } as Workflow)
  return env.workflows.update(existing, changes)
}

/** DELETE /v2/workflows/{workflowId}: a soft delete; its workflowId is free again. */
export function deleteWorkflowV2(env: Environment, pathValue: string): void {
  const workflow = findWorkflow(env, pathValue)
  env.workflows.remove(workflow, env.now())
}

/** `?environmentId=` names another environment: API keys are scoped to their own. */
export function checkEnvironmentScope(env: Environment, environmentId: unknown) {
  if (environmentId !== undefined && environmentId !== '' && environmentId !== env._environmentId)
    throw httpError(
      403,
      'This authentication scheme is scoped to a single environment and cannot target a different `_environmentId`. ' +
        'Use credentials from the target environment, or authenticate with a session token.'
    )
}
