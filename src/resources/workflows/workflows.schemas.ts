import { SETTINGS_ORDER } from '../../channels.js'
import { z } from 'zod'
import { field } from '../../http/validate.js'
import {
  isArray,
  isBoolean,
  isDefined,
  isInt,
  isString,
  max,
  maxLength,
  min,
  nestedObjects,
  type Check,
} from '../../http/rules.js'
import { STEP_TYPES } from '../../workflow-model/workflows.types.js'
import { lazySchema, once } from '../../lazy-schema.js'

const groupDefined: Check = (v) =>
  v === undefined || v === null ? 'Notification group must be provided ' : undefined

/** Property order and message order as upstream's CreateWorkflowRequestDto reports them. */
export const CreateWorkflowBodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isDefined, isString], { type: 'string' }),
    // Upstream's custom message keeps its trailing space.
    notificationGroupId: field<string>('notificationGroupId', [groupDefined, isString], {
      type: 'string',
      pattern: '^[0-9a-fA-F]{24}$',
      description: 'id of the workflow group; must look like an ObjectId, existence is not checked',
    }),
    notificationGroup: z
      .unknown()
      .optional()
      .meta({ type: 'object', properties: { name: { type: 'string' } } }),
    tags: field<unknown[]>(
      'tags',
      [isArray],
      { type: 'array', items: { type: 'string' } },
      { optional: true }
    ),
    description: field<string>(
      'description',
      [maxLength(1000), isString],
      { type: 'string', maxLength: 1000 },
      { optional: true }
    ),
    steps: field<unknown[]>('steps', [isDefined, isArray, nestedObjects], {
      type: 'array',
      items: {
        type: 'object',
        required: ['template'],
        properties: {
          name: { type: 'string' },
          uuid: { type: 'string' },
          active: { type: 'boolean' },
          shouldStopOnFail: { type: 'boolean' },
          filters: { type: 'array', items: { type: 'object' } },
          metadata: { type: 'object' },
          variants: { type: 'array', items: { type: 'object' } },
          template: {
            type: 'object',
            required: ['type'],
            properties: { type: { type: 'string', enum: [...STEP_TYPES] } },
          },
        },
      },
    }),
    active: field<boolean>(
      'active',
      [isBoolean],
      { type: 'boolean', default: false },
      { optional: true }
    ),
    draft: field<boolean>(
      'draft',
      [isBoolean],
      {
        type: 'boolean',
        deprecated: true,
        description: 'ignored: draft is always the opposite of active',
      },
      { optional: true }
    ),
    critical: field<boolean>(
      'critical',
      [isBoolean],
      { type: 'boolean', default: false },
      { optional: true }
    ),
    preferenceSettings: z
      .unknown()
      .optional()
      .meta({
        type: 'object',
        properties: Object.fromEntries(
          SETTINGS_ORDER.map((c) => [c, { type: 'boolean', default: true }])
        ),
      }),
    blueprintId: field<string>('blueprintId', [isString], { type: 'string' }, { optional: true }),
    data: z
      .unknown()
      .optional()
      .meta({ type: 'object', description: 'custom data, stored as sent' }),
  })
)

export const SetStatusBodySchema = lazySchema(() =>
  z.object({
    active: field<boolean>('active', [isDefined, isBoolean], { type: 'boolean' }),
  })
)

export const WorkflowIdParamsSchema = lazySchema(() => z.object({ workflowId: z.string() }))

/** Upstream's list query: its own property first, then the inherited page and limit. */
export const ListWorkflowsQuerySchema = lazySchema(() =>
  z.object({
    query: field<string>(
      'query',
      [isString],
      { type: 'string', description: 'case-insensitive match on name or trigger identifier' },
      { optional: true }
    ),
    page: field<number>('page', [isInt], { type: 'integer', default: 0 }, { optional: true }),
    limit: field<number>(
      'limit',
      [max(100), min(1), isInt],
      { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      { optional: true }
    ),
  })
)

const WorkflowSchema = once(() =>
  z
    .looseObject({
      _id: z.string(),
      name: z.string(),
      description: z.string().optional(),
      active: z.boolean(),
      draft: z.boolean(),
      critical: z.boolean(),
      isBlueprint: z.boolean(),
      _notificationGroupId: z.string(),
      tags: z.array(z.string()),
      triggers: z.array(
        z.object({
          type: z.literal('event'),
          identifier: z.string(),
          variables: z.array(z.object({ name: z.string(), type: z.string(), _id: z.string() })),
          reservedVariables: z.array(z.unknown()),
          subscriberVariables: z.array(z.object({ name: z.string(), _id: z.string() })),
          _id: z.string(),
        })
      ),
      steps: z.array(
        z.looseObject({ _id: z.string(), _templateId: z.string(), template: z.looseObject({}) })
      ),
      preferenceSettings: z.object({
        email: z.boolean(),
        sms: z.boolean(),
        in_app: z.boolean(),
        chat: z.boolean(),
        push: z.boolean(),
      }),
      _environmentId: z.string(),
      _organizationId: z.string(),
      _creatorId: z.string(),
      deleted: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'Workflow' })
)

export const WorkflowEnvelopeSchema = lazySchema(() => z.object({ data: WorkflowSchema() }))
export const WorkflowListSchema = lazySchema(() =>
  z.object({
    page: z.number(),
    data: z.array(WorkflowSchema()),
    totalCount: z.number(),
    pageSize: z.number(),
  })
)
