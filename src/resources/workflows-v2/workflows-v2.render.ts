/**
 * Workflows as the /v2 routes answer them (upstream's toResponseWorkflowDto and its list
 * twin), for dashboard and v1 workflows alike: both live in one store.
 */
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow, WorkflowStep } from '../../workflow-model/workflows.types.js'
import { isObj, type Obj } from '../../objects.js'
import { sharedControlTexts } from './control-schemas.js'
import { holdingTexts, JsonText, stringifyWithTexts } from './json-text.js'
import { payloadExample } from './payload-schema.js'
import { buildSlug } from './slug-id.js'
import {
  buildPreferences,
  forVariables,
  storedPayloadSchema,
  variablesFor,
} from './workflows-v2.usecases.js'
import type { SharedVariableSchema, StepForVariables } from './variables.js'

/** Old v1 workflows have neither; since 2025 a REGULAR (v1) one reads as novu-cloud-v1. */
function computeOrigin(workflow: Workflow): string {
  if (workflow.type === undefined && workflow.origin === undefined) return 'novu-cloud-v1'
  return workflow.type === 'REGULAR'
    ? 'novu-cloud-v1'
    : (workflow.origin as string | undefined) || 'external'
}

const slugOf = (env: Environment) => (name: string) =>
  env.generation.identifiers.slug(name, env.rng)

/** The preferences a workflow answers with; a document written before they existed gets upstream's fallbacks. */
function preferencesOf(workflow: Workflow) {
  if ('defaultPreferences' in workflow)
    return { user: workflow.userPreferences ?? null, default: workflow.defaultPreferences }
  const settings = (workflow.preferenceSettings ?? {}) as Record<string, boolean>
  return {
    user: buildPreferences({
      all: { enabled: true, readOnly: workflow.critical === true },
      channels: Object.fromEntries(Object.entries(settings).map(([c, on]) => [c, { enabled: on }])),
    }),
    default: buildPreferences(undefined),
  }
}

/**
 * How a render writes the parts of its answer that many workflows share, the steps' control
 * schemas and variable schemas: as objects (an answer kept as a template), or as JSON text made
 * once (an answer sent once), in objects and arrays marked for stringifyWithTexts.
 */
interface AnswerParts {
  controlSchemas(step: WorkflowStep, controls: Obj): { dataSchema: unknown; uiSchema: unknown }
  variables(shared: SharedVariableSchema): unknown
  holding<T extends object>(value: T): T
}

const AS_OBJECTS: AnswerParts = {
  controlSchemas: (_step, controls) => ({
    dataSchema: controls.schema,
    uiSchema: controls.uiSchema,
  }),
  variables: (shared) => shared.schema,
  holding: (value) => value,
}

/** For an answer sent once: a step's controls that are its type's shared ones as their text. */
const AS_TEXTS: AnswerParts = {
  controlSchemas(step, controls) {
    const type = step.template?.type
    const texts = typeof type === 'string' ? sharedControlTexts(type, controls) : undefined
    if (!texts) return AS_OBJECTS.controlSchemas(step, controls)
    return {
      dataSchema: new JsonText(texts.schema),
      uiSchema: texts.uiSchema === undefined ? undefined : new JsonText(texts.uiSchema),
    }
  },
  variables: (shared) => new JsonText(shared.text),
  holding: holdingTexts,
}

/** One step as BuildStepData answers it, issues left out when there are none. */
function renderStep(
  env: Environment,
  workflow: Workflow,
  step: WorkflowStep,
  index: number,
  context: { steps: StepForVariables[]; payloadSchema: unknown; parts: AnswerParts }
) {
  const { parts } = context
  const name = (step.name as string | undefined) || 'MISSING STEP NAME - PLEASE UPDATE IMMEDIATELY'
  const values = isObj(step.controlValues) ? step.controlValues : {}
  const controls = isObj(step.template?.controls) ? (step.template.controls as Obj) : {}
  const issues = isObj(step.issues) && Object.keys(step.issues).length ? step.issues : undefined
  const { dataSchema, uiSchema } = parts.controlSchemas(step, controls)
  return parts.holding({
    controls: parts.holding({ dataSchema, uiSchema, values }),
    controlValues: values,
    ...(isObj(step.providerOverrides) ? { providerOverrides: step.providerOverrides } : {}),
    variables: parts.variables(
      variablesFor(env, {
        steps: context.steps,
        stepIndex: index,
        payloadSchema: context.payloadSchema,
      })
    ),
    name,
    slug: buildSlug(name, 'st_', step._templateId, slugOf(env), env.rng),
    _id: step._templateId,
    stepId: (step.stepId as string | undefined) || 'Missing Step Id',
    type: step.template?.type,
    origin: (workflow.origin as string | undefined) || 'external',
    workflowId: workflow.triggers[0]?.identifier,
    workflowDatabaseId: workflow._id,
    issues,
    stepResolverHash: step.template?.stepResolverHash,
  })
}

const updatedBy = (workflow: Workflow) =>
  typeof workflow._updatedBy === 'string' ? { _id: workflow._updatedBy } : undefined

/**
 * The fields of renderWorkflowV2's answer that a status change alone moves, made as it makes
 * them: the workflows store keeps the rest of the answer as a template (renderedWithSlots).
 */
export const V2_STATUS_FIELDS = {
  active: (workflow: Workflow) => workflow.active,
  updatedAt: (workflow: Workflow) => workflow.updatedAt || '',
  status: (workflow: Workflow) => (workflow.status as string | undefined) || 'ACTIVE',
}

/**
 * Whether renderWorkflowV2 reads nothing but the workflow (and the environment's constants):
 * no slug that draws from the generator (a name that slugs to nothing), no payload example
 * with the time in it. Only then may its answer be kept.
 */
export function v2AnswerKeepable(env: Environment, workflow: Workflow): boolean {
  let drew = false
  const noDraw = () => {
    drew = true
    return 0
  }
  const names = [
    workflow.name || '',
    ...workflow.steps.map(
      (step) => (step.name as string | undefined) || 'MISSING STEP NAME - PLEASE UPDATE IMMEDIATELY'
    ),
  ]
  for (const name of names) env.generation.identifiers.slug(name, noDraw)
  if (drew) return false
  const example = (now: string) =>
    JSON.stringify(payloadExample(workflow.payloadSchema, workflow.origin, now))
  return example('2000-01-01T00:00:00.000Z') === example('2001-01-01T00:00:00.000Z')
}

/** A WorkflowResponseDto (create, get, patch, put): the whole workflow with its steps' data. */
export function renderWorkflowV2(
  env: Environment,
  workflow: Workflow,
  parts: AnswerParts = AS_OBJECTS
): Obj {
  const name = workflow.name || ''
  const context = {
    steps: workflow.steps.map(forVariables),
    payloadSchema: storedPayloadSchema(workflow),
    parts,
  }
  return parts.holding({
    _id: workflow._id,
    slug: buildSlug(name, 'wf_', workflow._id, slugOf(env), env.rng),
    workflowId: workflow.triggers[0]?.identifier,
    name,
    tags: workflow.tags,
    active: workflow.active,
    preferences: preferencesOf(workflow),
    steps: parts.holding(
      workflow.steps.map((step, index) => renderStep(env, workflow, step, index, context))
    ),
    description: workflow.description,
    origin: computeOrigin(workflow),
    lastPublishedAt: workflow.lastPublishedAt,
    lastPublishedBy: undefined,
    updatedAt: workflow.updatedAt || '',
    createdAt: workflow.createdAt || '',
    updatedBy: updatedBy(workflow),
    status: (workflow.status as string | undefined) || 'ACTIVE',
    issues: workflow.issues,
    lastTriggeredAt: workflow.lastTriggeredAt,
    payloadSchema: workflow.payloadSchema,
    payloadExample: payloadExample(workflow.payloadSchema, workflow.origin, env.now()),
    validatePayload: workflow.validatePayload || false,
    isTranslationEnabled: workflow.isTranslationEnabled || false,
    severity: (workflow.severity as string | undefined) || 'none',
    agent: workflow.agent ?? null,
  })
}

/**
 * renderWorkflowV2's answer as JSON, for an answer sent once (create, replace): the same text,
 * with the steps' shared schemas copied from text made once instead of serialised again.
 */
export const renderWorkflowV2Text = (env: Environment, workflow: Workflow): string =>
  stringifyWithTexts(renderWorkflowV2(env, workflow, AS_TEXTS)) as string

/** A WorkflowListResponseDto: the workflow in brief, each step's slug, type and stored issues. */
export function renderWorkflowListItemV2(env: Environment, workflow: Workflow): Obj {
  const name = workflow.name || 'Missing Name'
  return {
    _id: workflow._id,
    workflowId: workflow.triggers[0]?.identifier,
    slug: buildSlug(name, 'wf_', workflow._id, slugOf(env), env.rng),
    name,
    origin: computeOrigin(workflow),
    tags: workflow.tags,
    updatedAt: workflow.updatedAt || '',
    lastPublishedAt: workflow.lastPublishedAt || '',
    lastPublishedBy: undefined,
    stepTypeOverviews: workflow.steps.map((s) => s.template?.type).filter((type) => !!type),
    createdAt: workflow.createdAt || '',
    updatedBy: updatedBy(workflow),
    status: (workflow.status as string | undefined) || 'ACTIVE',
    lastTriggeredAt: workflow.lastTriggeredAt,
    isTranslationEnabled: workflow.isTranslationEnabled || false,
    steps: workflow.steps.map((step) => ({
      slug: buildSlug(
        (step.name as string | undefined) || 'Missing Name',
        'st_',
        step._templateId,
        slugOf(env),
        env.rng
      ),
      type: step.template?.type,
      issues: step.issues,
    })),
  }
}
