/**
 * The control schema (`controls.dataSchema`) and UI schema (`controls.uiSchema`) upstream gives
 * each step type of a dashboard workflow. The data schemas are what upstream's zod schemas
 * become through zod-to-json-schema, key for key: they are both shown in every response and
 * checked against each step's control values to find its issues.
 */
import type { JsonSchema } from '../../validation/json-schema-check.js'
import { BoundedCache } from '../../cache.js'
import { deepFreeze } from '../../objects.js'
import { MAX_DOCUMENT_DEPTH, nestingDepth } from '../../workflow-model/document-cast.js'

type Schema = Record<string, unknown>

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
/** `z.object({}).catchall(z.unknown())`: JSON logic for `skip`, free-form `data`. */
const openObject = (): Schema => ({ type: 'object', properties: {}, additionalProperties: {} })
const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra })
const boolean = (): Schema => ({ type: 'boolean' })
const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']

/** In-app redirect URLs: a {{variable}}, an absolute http(s) URL, or a path (not `//host`). */
const IN_APP_URL_PATTERN =
  '^(?:\\{\\{[^}]*\\}\\}.*|(?!mailto:)(?:https?:\\/\\/[^\\s/$.?#][^\\s{}]*(?:\\{\\{[^}]*\\}\\}[^\\s{}]*)*)|\\/(?!\\/)[^\\s{}]*(?:\\{\\{[^}]*\\}\\}[^\\s{}]*)*)$'
/** HTTP request URLs: a {{variable}} or an absolute http(s) URL. */
const HTTP_URL_PATTERN =
  '^(?:\\{\\{[^}]*\\}\\}.*|https?:\\/\\/[^\\s/$.?#][^\\s{}]*(?:\\{\\{[^}]*\\}\\}[^\\s{}]*)*)$'

const redirect = (): Schema => ({
  type: 'object',
  properties: {
    url: string({ pattern: IN_APP_URL_PATTERN }),
    target: string({ enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] }),
  },
  required: ['url', 'target'],
  additionalProperties: false,
})

const action = (): Schema => ({
  type: 'object',
  properties: { label: string(), redirect: redirect() },
  required: ['label'],
  additionalProperties: false,
})

function inAppBranch(required: 'subject' | 'body'): Schema {
  return {
    type: 'object',
    properties: {
      subject: string(required === 'subject' ? { minLength: 1 } : {}),
      body: string(required === 'body' ? { minLength: 1 } : {}),
      skip: openObject(),
      disableOutputSanitization: boolean(),
      avatar: string({ pattern: IN_APP_URL_PATTERN }),
      primaryAction: action(),
      secondaryAction: action(),
      data: openObject(),
      redirect: redirect(),
    },
    required: [required],
    additionalProperties: false,
  }
}

const bodyOnly = (): Schema => ({
  type: 'object',
  properties: { skip: openObject(), body: string() },
  required: ['body'],
  additionalProperties: false,
  $schema: DRAFT_07,
})

function delayBranch(type: string, fields: Schema, required: string[]): Schema {
  return {
    type: 'object',
    properties: {
      skip: openObject(),
      type: string({ const: type }),
      ...fields,
      extendToSchedule: boolean(),
    },
    required: ['type', ...required],
    additionalProperties: false,
  }
}

const keyValue = (): Schema => ({
  type: 'object',
  properties: { key: string({ minLength: 1 }), value: string({ minLength: 1 }) },
  required: ['key', 'value'],
  additionalProperties: false,
})

const DATA_SCHEMAS: Record<string, () => Schema> = {
  email: () => ({
    type: 'object',
    properties: {
      skip: openObject(),
      body: string({ default: '' }),
      editorType: string({ enum: ['block', 'html'], default: 'block' }),
      subject: string({ minLength: 1 }),
      disableOutputSanitization: boolean(),
      layoutId: { type: ['string', 'null'] },
      from: {
        type: 'object',
        properties: { email: string(), name: string() },
        additionalProperties: false,
      },
      useProviderDefaults: boolean(),
      replyTo: string(),
      preheader: string({ maxLength: 84 }),
    },
    required: ['subject'],
    additionalProperties: false,
    $schema: DRAFT_07,
  }),
  in_app: () => ({ anyOf: [inAppBranch('subject'), inAppBranch('body')], $schema: DRAFT_07 }),
  sms: bodyOnly,
  push: () => ({
    type: 'object',
    properties: { skip: openObject(), subject: string(), body: string() },
    required: ['subject', 'body'],
    additionalProperties: false,
    $schema: DRAFT_07,
  }),
  chat: bodyOnly,
  tool: bodyOnly,
  delay: () => ({
    anyOf: [
      delayBranch(
        'regular',
        { amount: { type: 'number', minimum: 1 }, unit: string({ enum: TIME_UNITS }) },
        ['amount', 'unit']
      ),
      delayBranch('timed', { cron: string({ minLength: 1 }) }, ['cron']),
      delayBranch('dynamic', { dynamicKey: string({ minLength: 1 }) }, ['dynamicKey']),
    ],
    $schema: DRAFT_07,
  }),
  digest: () => ({
    anyOf: [
      {
        type: 'object',
        properties: {
          skip: openObject(),
          type: string({ enum: ['regular'] }),
          amount: { type: 'number', minimum: 1 },
          unit: string({ enum: TIME_UNITS }),
          digestKey: string(),
          lookBackWindow: {
            type: 'object',
            properties: {
              amount: { type: 'number', minimum: 1 },
              unit: string({ enum: TIME_UNITS }),
              extendToSchedule: boolean(),
            },
            required: ['amount', 'unit'],
            additionalProperties: false,
          },
          extendToSchedule: boolean(),
        },
        required: ['amount', 'unit'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          skip: openObject(),
          type: string({ enum: ['timed'] }),
          cron: string({ minLength: 1 }),
          digestKey: string(),
          extendToSchedule: boolean(),
        },
        required: ['cron'],
        additionalProperties: false,
      },
    ],
    $schema: DRAFT_07,
  }),
  // Upstream's refinement (amount and unit, or dynamicKey) does not survive the JSON Schema.
  throttle: () => ({
    type: 'object',
    properties: {
      skip: openObject(),
      type: string({ enum: ['fixed', 'dynamic'], default: 'fixed' }),
      amount: { type: 'number', minimum: 1 },
      unit: string({ enum: ['minutes', 'hours', 'days'] }),
      dynamicKey: string({ minLength: 1 }),
      threshold: { type: 'number', minimum: 1 },
      throttleKey: string(),
    },
    additionalProperties: false,
    $schema: DRAFT_07,
  }),
  http_request: () => ({
    type: 'object',
    properties: {
      skip: { type: 'object', additionalProperties: true },
      method: string({ enum: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] }),
      url: string({ pattern: HTTP_URL_PATTERN, minLength: 1, maxLength: 2048 }),
      headers: { type: 'array', items: keyValue(), maxItems: 50 },
      body: {
        oneOf: [string({ maxLength: 65536 }), { type: 'array', items: keyValue(), maxItems: 100 }],
      },
      responseBodySchema: {
        type: 'object',
        properties: {
          type: string(),
          properties: { type: 'object', additionalProperties: true },
          required: { type: 'array', items: string() },
        },
        additionalProperties: true,
      },
      enforceSchemaValidation: boolean(),
      continueOnFailure: boolean(),
      timeout: { type: 'number', minimum: 100, maximum: 30000 },
    },
    required: ['method', 'url'],
    additionalProperties: false,
  }),
}

/** Steps without a schema of their own (custom, and the `trigger` type both layers let through). */
const permissive = (): Schema => ({
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: true,
})

type UiProperty = { component: string; placeholder?: unknown }
const ui = (component: string, placeholder?: unknown): UiProperty =>
  placeholder === undefined ? { component } : { component, placeholder }
const SKIP_UI = () => ui('QUERY_EDITOR')

const UI_SCHEMAS: Record<string, () => Schema> = {
  email: () => ({
    group: 'EMAIL',
    properties: {
      body: ui('EMAIL_BODY'),
      subject: ui('TEXT_INLINE_LABEL'),
      skip: SKIP_UI(),
      editorType: ui('EMAIL_EDITOR_SELECT', 'block'),
      disableOutputSanitization: ui('DISABLE_SANITIZATION_SWITCH', false),
      layoutId: ui('LAYOUT_SELECT'),
    },
  }),
  in_app: () => ({
    group: 'IN_APP',
    properties: {
      body: ui('IN_APP_BODY', ''),
      avatar: ui('IN_APP_AVATAR', 'https://dashboard.novu.co/images/info.svg'),
      subject: ui('IN_APP_PRIMARY_SUBJECT', ''),
      primaryAction: ui('IN_APP_BUTTON_DROPDOWN', null),
      secondaryAction: ui('IN_APP_BUTTON_DROPDOWN', null),
      redirect: ui('URL_TEXT_BOX', { url: { placeholder: '' }, target: { placeholder: '_self' } }),
      skip: SKIP_UI(),
      disableOutputSanitization: ui('IN_APP_DISABLE_SANITIZATION_SWITCH', false),
      data: ui('DATA', null),
    },
  }),
  sms: () => ({ group: 'SMS', properties: { body: ui('SMS_BODY'), skip: SKIP_UI() } }),
  push: () => ({
    group: 'PUSH',
    properties: { subject: ui('PUSH_SUBJECT'), body: ui('PUSH_BODY'), skip: SKIP_UI() },
  }),
  chat: () => ({ group: 'CHAT', properties: { body: ui('CHAT_BODY'), skip: SKIP_UI() } }),
  tool: () => ({ group: 'TOOL', properties: { body: ui('TOOL_BODY'), skip: SKIP_UI() } }),
  delay: () => ({
    group: 'DELAY',
    properties: {
      skip: SKIP_UI(),
      amount: ui('DELAY_AMOUNT', null),
      unit: ui('DELAY_UNIT', 'seconds'),
      cron: ui('DELAY_CRON', ''),
      dynamicKey: ui('DELAY_DYNAMIC_KEY', ''),
      type: ui('DELAY_TYPE', 'regular'),
      extendToSchedule: ui('EXTEND_TO_SCHEDULE', false),
    },
  }),
  digest: () => ({
    group: 'DIGEST',
    properties: {
      amount: ui('DIGEST_AMOUNT', ''),
      unit: ui('DIGEST_UNIT', 'seconds'),
      digestKey: ui('DIGEST_KEY', ''),
      cron: ui('DIGEST_CRON', ''),
      type: ui('DIGEST_TYPE', 'regular'),
      extendToSchedule: ui('EXTEND_TO_SCHEDULE', false),
      skip: SKIP_UI(),
    },
  }),
  throttle: () => ({
    group: 'THROTTLE',
    properties: {
      skip: SKIP_UI(),
      type: ui('THROTTLE_TYPE', 'fixed'),
      amount: ui('THROTTLE_WINDOW', null),
      unit: ui('THROTTLE_UNIT', 'minutes'),
      dynamicKey: ui('THROTTLE_DYNAMIC_KEY', 'payload.timestamp'),
      threshold: ui('THROTTLE_THRESHOLD', 1),
      throttleKey: ui('THROTTLE_KEY', ''),
    },
  }),
  http_request: () => ({
    group: 'HTTP_REQUEST',
    properties: {
      skip: SKIP_UI(),
      method: ui('DESTINATION_METHOD', 'POST'),
      url: ui('DESTINATION_URL', 'https://api.example.com/endpoint'),
      headers: ui('DESTINATION_HEADERS', null),
      body: ui('DESTINATION_BODY', null),
      responseBodySchema: ui('DESTINATION_RESPONSE_BODY_SCHEMA', null),
      enforceSchemaValidation: ui('DESTINATION_ENFORCE_SCHEMA_VALIDATION', false),
      continueOnFailure: ui('DESTINATION_CONTINUE_ON_FAILURE', false),
      timeout: ui('DESTINATION_TIMEOUT', 5000),
    },
  }),
}

export interface ControlSchemas {
  schema: JsonSchema & Schema
  uiSchema?: Schema
}

/** A step type's schemas, each a fresh copy (stored steps hold `sharedControlSchemas`' ones). */
export function controlSchemasFor(stepType: string): ControlSchemas {
  const data = Object.hasOwn(DATA_SCHEMAS, stepType) ? DATA_SCHEMAS[stepType] : undefined
  const uiSchema = Object.hasOwn(UI_SCHEMAS, stepType) ? UI_SCHEMAS[stepType] : undefined
  return {
    schema: data ? data() : permissive(),
    ...(uiSchema ? { uiSchema: uiSchema() } : {}),
  }
}

/**
 * A known step type's schemas as a dashboard step stores them: one frozen pair per type, shared
 * by every step of that type. A write replaces a step's controls, never changes them, and a
 * copy per step is a few hundred objects that the heap keeps as long as the workflow. Its text
 * is made once too: an answer copies it (see `sharedControlTexts`).
 */
const sharedSchemas = new BoundedCache<
  string,
  { schemas: ControlSchemas; texts: ControlSchemaTexts; depth: number }
>('step control schemas', {
  // A closed set: the known step types.
  maxEntries: 64,
  // The texts and the frozen objects they were made from, about twice their length.
  sizeOf: ({ texts }) => 3 * (texts.schema.length + (texts.uiSchema?.length ?? 0)),
})

/** The type's schemas: frozen and shared for a known type, else (a v1 step's) a fresh copy. */
export function sharedControlSchemas(stepType: string): ControlSchemas {
  if (!Object.hasOwn(DATA_SCHEMAS, stepType)) return controlSchemasFor(stepType)
  let found = sharedSchemas.get(stepType)
  if (!found) {
    const schemas = deepFreeze(controlSchemasFor(stepType))
    const texts = {
      schema: JSON.stringify(schemas.schema),
      ...(schemas.uiSchema ? { uiSchema: JSON.stringify(schemas.uiSchema) } : {}),
    }
    // How deeply they nest, for the 100-level check of a workflow that holds them (a constant).
    const depth = nestingDepth(schemas, MAX_DOCUMENT_DEPTH)
    found = sharedSchemas.set(stepType, { schemas, texts, depth })
  }
  return found.schemas
}

/** A step type's schemas as JSON text. */
export interface ControlSchemaTexts {
  schema: string
  uiSchema?: string
}

/** The JSON text of `controls` when they are their type's shared ones (not a copy). */
export function sharedControlTexts(
  stepType: string,
  controls: unknown
): ControlSchemaTexts | undefined {
  return sharedEntry(stepType, controls)?.texts
}

/** How deeply `controls` nest when they are their type's shared ones (not a copy). */
export function sharedControlsDepth(stepType: string, controls: unknown): number | undefined {
  return sharedEntry(stepType, controls)?.depth
}

function sharedEntry(stepType: string, controls: unknown) {
  const found = sharedSchemas.get(stepType)
  return found && found.schemas === controls ? found : undefined
}
