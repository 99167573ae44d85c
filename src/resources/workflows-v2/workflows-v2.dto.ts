import { PREFERENCES_DTO_ORDER } from '../../channels.js'
/**
 * The two validation layers of the /v2/workflows routes before the use case runs: the request
 * DTOs (Nest's ValidationPipe: 422 "Validation Error" with every message under
 * `errors.general`) and the commands the controller and use cases build from them (422
 * "Validation failed for <Command>: …" keyed by path). Each class lists its own properties and
 * then its parent's, each property's checks in the order class-validator runs them.
 */
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEnum,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  type ClassRules,
  type Constraint,
} from '../../validation/class-validation.js'
import { isObj, type Obj } from '../../objects.js'
import { isValidJsonSchema } from './payload-schema.js'

/** The step types the DTO's discriminator knows (each its own class). */
export const DTO_STEP_TYPES = [
  'in_app',
  'email',
  'sms',
  'push',
  'chat',
  'delay',
  'digest',
  'throttle',
  'tool',
  'custom',
  'http_request',
] as const

/** StepTypeEnum, which the command checks: it also accepts `trigger`. */
const STEP_TYPE_ENUM = [
  'in_app',
  'email',
  'sms',
  'chat',
  'push',
  'tool',
  'digest',
  'trigger',
  'delay',
  'throttle',
  'custom',
  'http_request',
] as const

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const
export const ORIGINS = ['novu-cloud', 'novu-cloud-v1', 'external'] as const
export const WORKFLOW_STATUSES = ['ACTIVE', 'INACTIVE', 'ERROR'] as const
export const CREATION_SOURCES = [
  'template_store',
  'editor',
  'notification_directory',
  'onboarding_digest_demo',
  'onboarding_in_app',
  'empty_state',
  'dropdown',
  'onboarding_get_started',
  'bridge',
  'dashboard',
  'ai',
] as const
export const LIST_ORDER_FIELDS = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const

const MAX_NAME_LENGTH = 128
const MAX_DESCRIPTION_LENGTH = 256
const MAX_TAG_LENGTH = 64

/** Letters and digits, with `-`, `_` or `.` only between them. */
const SLUG_IDENTIFIER = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/
const slugMessage = (property: string) =>
  `${property} must be a valid slug format (letters, numbers, hyphens, dot and underscores only)`

const IsValidJsonSchema = (): Constraint => ({
  name: 'isValidJsonSchema',
  test: (value) => {
    if (!value || typeof value !== 'object') return !value
    return isValidJsonSchema(value)
  },
  message: () => 'payloadSchema must be a valid JSON schema',
})

const notNull = (value: unknown) => value !== null

/* ---------------------------------------------------------------------------------------------
 * Request DTOs
 */

const BASE_STEP: ClassRules = [
  { property: '_id', optional: true, checks: [IsString()] },
  {
    property: 'stepId',
    optional: true,
    checks: [Matches(SLUG_IDENTIFIER, slugMessage), IsString()],
  },
  { property: 'name', checks: [IsString()] },
]

function stepClass(step: Obj): ClassRules {
  const type = step.type
  if (!DTO_STEP_TYPES.includes(type as (typeof DTO_STEP_TYPES)[number])) return BASE_STEP
  return [
    { property: 'type', checks: [IsEnum(STEP_TYPE_ENUM)] },
    { property: 'controlValues', optional: true, checks: [IsObject()] },
    ...(type === 'chat' || type === 'tool'
      ? [{ property: 'providerOverrides', optional: true, checks: [IsObject()] }]
      : []),
    ...BASE_STEP,
  ]
}

const AGENT: ClassRules = [
  { property: 'identifier', checks: [IsString()] },
  { property: 'providers', optional: true, checks: [IsObject()] },
]

/** WorkflowCommonsFields, the parent of the create and update DTOs. */
const WORKFLOW_COMMONS: ClassRules = [
  { property: 'name', checks: [IsString()] },
  { property: 'description', optional: true, checks: [IsString()] },
  { property: 'tags', optional: true, checks: [IsString(true), IsArray()] },
  { property: 'active', optional: true, checks: [IsBoolean()] },
  { property: 'validatePayload', optional: true, checks: [IsBoolean()] },
  { property: 'payloadSchema', optional: true, checks: [IsValidJsonSchema()] },
  { property: 'isTranslationEnabled', optional: true, checks: [IsBoolean()] },
  { property: 'agent', optional: true, when: notNull, nested: () => AGENT },
]

export const CREATE_WORKFLOW_DTO: ClassRules = [
  { property: 'workflowId', checks: [Matches(SLUG_IDENTIFIER, slugMessage), IsString()] },
  { property: 'steps', checks: [IsArray()], nested: stepClass, nestedEach: true },
  { property: '__source', optional: true, checks: [IsEnum(CREATION_SOURCES)] },
  { property: 'severity', optional: true, checks: [IsEnum(SEVERITIES)] },
  ...WORKFLOW_COMMONS,
]

const WORKFLOW_PREFERENCE_DTO: ClassRules = [
  { property: 'enabled', checks: [IsBoolean()] },
  { property: 'readOnly', checks: [IsBoolean()] },
]
/** `@Type(() => ChannelPreferenceDto)` on the whole channel map: only its own `enabled` is checked. */
const CHANNEL_PREFERENCE_DTO: ClassRules = [{ property: 'enabled', checks: [IsBoolean()] }]
const WORKFLOW_PREFERENCES_DTO: ClassRules = [
  { property: 'all', nested: () => WORKFLOW_PREFERENCE_DTO },
  { property: 'channels', nested: () => CHANNEL_PREFERENCE_DTO },
]
const PREFERENCES_REQUEST_DTO: ClassRules = [
  { property: 'user', optional: true, nested: () => WORKFLOW_PREFERENCES_DTO },
  { property: 'workflow', optional: true, nested: () => WORKFLOW_PREFERENCES_DTO },
]

export const UPDATE_WORKFLOW_DTO: ClassRules = [
  { property: 'workflowId', optional: true },
  { property: 'steps', checks: [IsArray()], nested: stepClass, nestedEach: true },
  { property: 'preferences', nested: () => PREFERENCES_REQUEST_DTO },
  { property: 'origin', optional: true, checks: [IsEnum(ORIGINS)] },
  { property: 'severity', optional: true, checks: [IsEnum(SEVERITIES)] },
  ...WORKFLOW_COMMONS,
]

export const PATCH_WORKFLOW_DTO: ClassRules = [
  { property: 'active', optional: true, checks: [IsBoolean()] },
  { property: 'name', optional: true, checks: [IsString()] },
  { property: 'description', optional: true, checks: [IsString()] },
  { property: 'tags', optional: true, checks: [IsString(true), IsArray()] },
  { property: 'payloadSchema', optional: true, checks: [IsValidJsonSchema()] },
  { property: 'validatePayload', optional: true, checks: [IsBoolean()] },
  { property: 'isTranslationEnabled', optional: true, checks: [IsBoolean()] },
]

export const LIST_WORKFLOWS_QUERY_DTO: ClassRules = [
  { property: 'query', optional: true, checks: [IsString()] },
  { property: 'tags', optional: true, checks: [IsString(true), IsArray()] },
  { property: 'status', optional: true, checks: [IsEnum(WORKFLOW_STATUSES, true), IsArray()] },
  { property: 'limit', optional: true, checks: [Max(100), Min(1), IsInt(), IsNumber()] },
  { property: 'offset', optional: true, checks: [Min(0), IsNumber(), IsInt()] },
  { property: 'orderDirection', optional: true, checks: [IsEnum(['ASC', 'DESC'])] },
  { property: 'orderBy', optional: true, checks: [IsEnum(LIST_ORDER_FIELDS), IsString()] },
]

/* ---------------------------------------------------------------------------------------------
 * What class-transformer does to the bodies before they are checked
 */

/** WorkflowPreferenceDto's initialisers: `enabled = true`, `readOnly = false`. */
function withPreferenceDefaults(preferences: unknown): unknown {
  if (!isObj(preferences)) return preferences
  const out: Obj = { ...preferences }
  for (const level of ['user', 'workflow']) {
    const value = out[level]
    if (!isObj(value)) continue
    const next: Obj = { ...value }
    if (isObj(next.all)) next.all = { enabled: true, readOnly: false, ...next.all }
    if (isObj(next.channels)) next.channels = { enabled: true, ...next.channels }
    out[level] = next
  }
  return out
}

/** A create or update body as the DTO instance holds it. */
export function transformWorkflowBody(body: Obj): Obj {
  return 'preferences' in body
    ? { ...body, preferences: withPreferenceDefaults(body.preferences) }
    : body
}

/** `Number(value)`, or absent when that is NaN. */
const numberOrAbsent = (value: unknown) => {
  if (value === undefined) return undefined
  const parsed = Number(value)
  return Number.isNaN(parsed) ? undefined : parsed
}
const asList = (value: unknown) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value]

/** The list query as its DTO holds it: numbers parsed, `tags` and `status` always lists. */
export function transformListQuery(query: Obj): Obj {
  return {
    ...query,
    tags: asList(query.tags),
    status: asList(query.status),
    limit: numberOrAbsent(query.limit),
    offset: numberOrAbsent(query.offset),
  }
}

/* ---------------------------------------------------------------------------------------------
 * Commands
 */

const UPSERT_STEP_COMMAND: ClassRules = [
  {
    property: 'name',
    defined: true,
    checks: [Length(1, MAX_NAME_LENGTH), IsNotEmpty(), IsString()],
  },
  { property: 'type', defined: true, checks: [IsNotEmpty(), IsEnum(STEP_TYPE_ENUM)] },
  { property: 'controlValues', optional: true },
  { property: 'providerOverrides', optional: true, checks: [IsObject()] },
  { property: '_id', optional: true, checks: [IsString()] },
  { property: 'stepId', optional: true, checks: [IsString()] },
]

const WORKFLOW_PREFERENCES_UPSERT: ClassRules = [
  { property: 'all', nested: () => undefined },
  { property: 'channels', checks: [IsObject()], nested: () => undefined, nestedEach: true },
]

const PREFERENCES_UPSERT: ClassRules = [
  { property: 'user', optional: true, nested: () => WORKFLOW_PREFERENCES_UPSERT },
  { property: 'workflow', optional: true, nested: () => WORKFLOW_PREFERENCES_UPSERT },
]

/** UpsertWorkflowDataCommand, checked as `workflowDto` of UpsertWorkflowCommand. */
const UPSERT_WORKFLOW_DATA_COMMAND: ClassRules = [
  { property: 'workflowId', optional: true, checks: [IsString()] },
  { property: 'origin', optional: true, checks: [IsEnum(ORIGINS)] },
  { property: 'steps', checks: [IsArray()], nested: () => UPSERT_STEP_COMMAND, nestedEach: true },
  { property: 'preferences', optional: true, nested: () => PREFERENCES_UPSERT },
  { property: 'name', checks: [Length(1, MAX_NAME_LENGTH), IsNotEmpty(), IsString()] },
  { property: 'description', optional: true, when: notNull, checks: [IsString()] },
  {
    property: 'tags',
    optional: true,
    when: notNull,
    checks: [
      ArrayMaxSize(16, () => 'tags must contain no more than 16 elements'),
      IsString(true),
      IsArray(),
    ],
  },
  { property: 'active', optional: true, checks: [IsBoolean()] },
  { property: '__source', optional: true, checks: [IsEnum(CREATION_SOURCES)] },
  { property: 'payloadSchema', optional: true, checks: [IsValidJsonSchema()] },
  { property: 'validatePayload', optional: true, checks: [IsBoolean()] },
  { property: 'isTranslationEnabled', optional: true, checks: [IsBoolean()] },
  { property: 'severity', optional: true, checks: [IsEnum(SEVERITIES)] },
  { property: 'agent', optional: true, when: notNull, nested: () => AGENT },
]

export const UPSERT_WORKFLOW_COMMAND: ClassRules = [
  { property: 'workflowDto', nested: () => UPSERT_WORKFLOW_DATA_COMMAND },
]

const CHANNEL_PREFERENCE_REQUIRED: ClassRules = [{ property: 'enabled', checks: [IsBoolean()] }]
const PREFERENCES_REQUIRED: ClassRules = [
  {
    property: 'all',
    checks: [IsObject()],
    nested: () => [
      { property: 'enabled', checks: [IsBoolean()] },
      { property: 'readOnly', checks: [IsBoolean()] },
    ],
  },
  {
    property: 'channels',
    checks: [IsObject()],
    nested: () =>
      PREFERENCES_DTO_ORDER.map((channel) => ({
        property: channel,
        checks: [IsObject()],
        nested: () => CHANNEL_PREFERENCE_REQUIRED,
      })),
  },
]

const userPreferencesRule = {
  property: 'userPreferences',
  optional: true,
  when: notNull,
  checks: [IsObject()],
  nested: () => PREFERENCES_REQUIRED,
}
const defaultPreferencesRule = {
  property: 'defaultPreferences',
  optional: true,
  checks: [IsObject()],
  nested: () => PREFERENCES_REQUIRED,
}

/** The parts of CreateWorkflowCommandV0 a /v2 create can fail. */
export const CREATE_WORKFLOW_COMMAND_V0: ClassRules = [
  { property: 'name', defined: true, checks: [Length(1, MAX_NAME_LENGTH), IsString()] },
  {
    property: 'description',
    optional: true,
    checks: [Length(0, MAX_DESCRIPTION_LENGTH), IsString()],
  },
  {
    property: 'tags',
    optional: true,
    checks: [Length(1, MAX_TAG_LENGTH, true), ArrayUnique(), IsArray()],
  },
  userPreferencesRule,
  defaultPreferencesRule,
]

/** The parts of UpdateWorkflowCommandV0 a /v2 update can fail. */
export const UPDATE_WORKFLOW_COMMAND_V0: ClassRules = [
  { property: 'name', optional: true, checks: [Length(1, MAX_NAME_LENGTH), IsString()] },
  {
    property: 'description',
    optional: true,
    when: notNull,
    checks: [Length(0, MAX_DESCRIPTION_LENGTH), IsString()],
  },
  {
    property: 'tags',
    optional: true,
    when: notNull,
    checks: [Length(1, MAX_TAG_LENGTH, true), ArrayUnique(), IsArray()],
  },
  userPreferencesRule,
  defaultPreferencesRule,
]

export const PATCH_WORKFLOW_COMMAND: ClassRules = [
  { property: 'workflowIdOrInternalId', checks: [IsNotEmpty(), IsString()] },
  { property: 'active', optional: true, checks: [IsBoolean()] },
  { property: 'name', optional: true, checks: [IsString()] },
  { property: 'description', optional: true, checks: [IsString()] },
  { property: 'tags', optional: true, checks: [IsArray()] },
  { property: 'payloadSchema', optional: true, checks: [IsObject()] },
  { property: 'validatePayload', optional: true, checks: [IsBoolean()] },
  { property: 'isTranslationEnabled', optional: true, checks: [IsBoolean()] },
]
