/**
 * The /v2/workflows request schemas (each one upstream's class-validator DTO, validated by
 * class-validation.ts and documented here) and the response schemas of the OpenAPI document.
 */
import { z } from 'zod'
import { InternalError } from '../../errors.js'
import { withBodyFields } from '../../http/route-input.js'
import { lazySchema, once } from '../../lazy-schema.js'
import { pipeMessages, validateObject, type ClassRules } from '../../validation/class-validation.js'
import { isObj, type Obj } from '../../objects.js'
import {
  CREATE_WORKFLOW_DTO,
  CREATION_SOURCES,
  DTO_STEP_TYPES,
  LIST_ORDER_FIELDS,
  LIST_WORKFLOWS_QUERY_DTO,
  ORIGINS,
  PATCH_WORKFLOW_DTO,
  SEVERITIES,
  transformListQuery,
  transformWorkflowBody,
  UPDATE_WORKFLOW_DTO,
  WORKFLOW_STATUSES,
} from './workflows-v2.dto.js'

type JsonSchemaDoc = Record<string, unknown>

/** A DTO checked as Nest's ValidationPipe does: every message, in upstream's order. */
function dtoSchema(
  rules: ClassRules,
  doc: JsonSchemaDoc,
  transform: (value: Obj) => Obj = (value) => value
): z.ZodType<Obj> {
  const schema = z
    .unknown()
    .transform((value, ctx) => {
      const dto = transform(isObj(value) ? value : {})
      for (const message of pipeMessages(validateObject(dto, rules)))
        ctx.addIssue({ code: 'custom', message })
      return dto
    })
    .meta(doc) as unknown as z.ZodType<Obj>
  return withBodyFields(
    schema,
    rules.map((rule) => rule.property)
  )
}

/** class-transformer's step discriminator reads `type` from every item: a null one throws (a 500). */
function withSteps(body: Obj): Obj {
  if (Array.isArray(body.steps) && body.steps.some((step) => step === null || step === undefined))
    throw new InternalError("Cannot read properties of null (reading 'type')")
  return transformWorkflowBody(body)
}

const SLUG_PATTERN = '^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$'

const stepDoc = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    _id: { type: 'string', description: 'the step to keep (PUT): its `_id` as answered' },
    stepId: { type: 'string', pattern: SLUG_PATTERN },
    name: { type: 'string' },
    type: { type: 'string', enum: [...DTO_STEP_TYPES] },
    controlValues: {
      type: 'object',
      additionalProperties: true,
      description: "the step's controls; checked against its type's schema into `issues`",
    },
    providerOverrides: { type: 'object', description: 'chat and tool steps' },
  },
}

const preferencesDoc = {
  type: 'object',
  properties: {
    user: { type: 'object', nullable: true },
    workflow: { type: 'object', nullable: true },
  },
}

const commonsDoc = {
  name: { type: 'string', maxLength: 128 },
  description: { type: 'string', maxLength: 256 },
  tags: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 } },
  active: { type: 'boolean', description: 'true when absent (raw HTTP); @novu/api sends false' },
  validatePayload: { type: 'boolean' },
  payloadSchema: { type: 'object', nullable: true, additionalProperties: true },
  isTranslationEnabled: { type: 'boolean' },
  severity: { type: 'string', enum: [...SEVERITIES] },
  agent: { type: 'object', nullable: true, properties: { identifier: { type: 'string' } } },
  preferences: preferencesDoc,
}

export const CreateWorkflowV2BodySchema = lazySchema(() =>
  dtoSchema(
    CREATE_WORKFLOW_DTO,
    {
      type: 'object',
      required: ['name', 'workflowId', 'steps'],
      properties: {
        workflowId: {
          type: 'string',
          pattern: SLUG_PATTERN,
          description: 'kept as sent; when taken, suffixed with `-` and 8 characters',
        },
        steps: { type: 'array', maxItems: 20, items: stepDoc },
        __source: { type: 'string', enum: [...CREATION_SOURCES] },
        ...commonsDoc,
      },
    },
    withSteps
  )
)

export const UpdateWorkflowV2BodySchema = lazySchema(() =>
  dtoSchema(
    UPDATE_WORKFLOW_DTO,
    {
      type: 'object',
      required: ['name', 'steps'],
      properties: {
        steps: { type: 'array', maxItems: 20, items: stepDoc },
        origin: { type: 'string', enum: [...ORIGINS], description: 'ignored' },
        workflowId: { type: 'string', description: 'ignored' },
        ...commonsDoc,
      },
    },
    withSteps
  )
)

export const PatchWorkflowV2BodySchema = lazySchema(() =>
  dtoSchema(PATCH_WORKFLOW_DTO, {
    type: 'object',
    properties: {
      active: { type: 'boolean' },
      name: { type: 'string' },
      description: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      payloadSchema: { type: 'object', additionalProperties: true },
      validatePayload: { type: 'boolean' },
      isTranslationEnabled: {
        type: 'boolean',
        description: 'accepted; changes nothing outside Cloud',
      },
    },
  })
)

export const ListWorkflowsV2QuerySchema = lazySchema(() =>
  dtoSchema(
    LIST_WORKFLOWS_QUERY_DTO,
    {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        offset: { type: 'integer', minimum: 0, default: 0 },
        orderDirection: { type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' },
        orderBy: { type: 'string', enum: [...LIST_ORDER_FIELDS], default: 'createdAt' },
        query: { type: 'string', description: 'case-insensitive match on name or workflowId' },
        tags: { type: 'array', items: { type: 'string' }, description: 'any of them' },
        status: { type: 'array', items: { type: 'string', enum: [...WORKFLOW_STATUSES] } },
      },
    },
    transformListQuery
  )
)

export const WorkflowV2ParamsSchema = lazySchema(() =>
  z.object({
    workflowId: z.string().meta({ description: "the workflow's `_id`, `workflowId` or `slug`" }),
  })
)

export const GetWorkflowV2QuerySchema = lazySchema(() =>
  z.looseObject({
    environmentId: z
      .unknown()
      .optional()
      .meta({ type: 'string', description: "API keys: only the key's own environment" }),
  })
)

/** The response schemas, for the OpenAPI document only: built when it is first asked for. */
const responseSchemas = once(() => {
  const IssueSchema = z.looseObject({
    message: z.string(),
    issueType: z.string(),
    variableName: z.string().optional(),
  })

  const StepResponseSchema = z.looseObject({
    _id: z.string(),
    stepId: z.string(),
    slug: z.string(),
    name: z.string(),
    type: z.string(),
    origin: z.enum(ORIGINS),
    workflowId: z.string(),
    workflowDatabaseId: z.string(),
    controls: z.looseObject({
      values: z.record(z.string(), z.unknown()),
      dataSchema: z.record(z.string(), z.unknown()).optional(),
      uiSchema: z.record(z.string(), z.unknown()).optional(),
    }),
    controlValues: z.record(z.string(), z.unknown()),
    variables: z.record(z.string(), z.unknown()),
    issues: z
      .object({
        controls: z.record(z.string(), z.array(IssueSchema)).optional(),
        integration: z.record(z.string(), z.array(IssueSchema)).optional(),
      })
      .optional(),
  })

  const PreferencesSchema = z.looseObject({
    all: z.looseObject({ enabled: z.boolean(), readOnly: z.boolean() }),
    channels: z.record(z.string(), z.looseObject({ enabled: z.boolean() })),
  })

  const WorkflowV2Schema = z
    .looseObject({
      _id: z.string(),
      workflowId: z.string(),
      slug: z.string(),
      name: z.string(),
      description: z.string().optional(),
      tags: z.array(z.string()),
      active: z.boolean(),
      status: z.enum(WORKFLOW_STATUSES),
      origin: z.enum(ORIGINS),
      severity: z.enum(SEVERITIES),
      preferences: z.object({ user: PreferencesSchema.nullable(), default: PreferencesSchema }),
      steps: z.array(StepResponseSchema),
      payloadSchema: z.record(z.string(), z.unknown()).nullable().optional(),
      payloadExample: z.unknown().optional(),
      validatePayload: z.boolean(),
      isTranslationEnabled: z.boolean(),
      lastTriggeredAt: z.string().nullable().optional(),
      lastPublishedAt: z.string().nullable().optional(),
      agent: z.unknown().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'WorkflowV2' })

  const WorkflowV2EnvelopeSchema = z.object({ data: WorkflowV2Schema })

  const WorkflowV2ListSchema = z.object({
    data: z.object({
      workflows: z.array(
        z.looseObject({
          _id: z.string(),
          workflowId: z.string(),
          slug: z.string(),
          name: z.string(),
          origin: z.enum(ORIGINS),
          tags: z.array(z.string()),
          status: z.enum(WORKFLOW_STATUSES),
          stepTypeOverviews: z.array(z.string()),
          steps: z.array(z.looseObject({ slug: z.string(), type: z.string() })),
          createdAt: z.string(),
          updatedAt: z.string(),
        })
      ),
      totalCount: z.number(),
    }),
  })
  return { WorkflowV2EnvelopeSchema, WorkflowV2ListSchema }
})

export const WorkflowV2EnvelopeSchema = lazySchema(() => responseSchemas().WorkflowV2EnvelopeSchema)
export const WorkflowV2ListSchema = lazySchema(() => responseSchemas().WorkflowV2ListSchema)
