import { z } from 'zod'
import { field, fieldWith, runChecks } from '../../http/validate.js'
import { isDefined, isObject, isString, type Check } from '../../http/rules.js'
import { isEmail, isLocale, isTimeZone } from '../subscribers/checks.js'
import { isObj, type Obj } from '../../objects.js'
import { lazySchema, once } from '../../lazy-schema.js'

/**
 * The trigger family's request DTOs, per generation: properties in the order upstream declares
 * them (the order its pipe reports them in), nested `actor` and `tenant` messages prefixed with
 * their parent as Nest's pipe prefixes them.
 */

/** `@IsNotEmpty()`: '', null and undefined fail. */
const isNotEmpty =
  (message?: string): Check =>
  (v, p) =>
    v === '' || v === null || v === undefined ? (message ?? `${p} should not be empty`) : undefined

/** A property checked only when present (`@IsOptional()`), null also skipped. */
const optional = (obj: Obj, name: string, checks: Check[]) =>
  obj[name] === undefined || obj[name] === null ? [] : runChecks(checks, obj[name], name)

/** The subscriber DTO a trigger's `actor` is validated as, per generation. */
export type SubscriberDtoMessages = (subscriber: Obj) => string[]

/** 2024-10: `CreateSubscriberRequestDto`, no null special case, no timezone. */
const subscriberDto2024: SubscriberDtoMessages = (s) => [
  ...runChecks([isDefined, isString], s.subscriberId, 'subscriberId'),
  ...optional(s, 'email', [isEmail]),
  ...optional(s, 'firstName', [isString]),
  ...optional(s, 'lastName', [isString]),
  ...optional(s, 'phone', [isString]),
  ...optional(s, 'avatar', [isString]),
  ...optional(s, 'locale', [isLocale]),
  ...optional(s, 'channels', [(v, p) => (Array.isArray(v) ? undefined : `${p} must be an array`)]),
]

/** Since 2025: the subclass's own properties first, then `BaseSubscriberFieldsDto`'s. */
const subscriberDto2026: SubscriberDtoMessages = (s) => [
  ...runChecks(
    [isDefined, isNotEmpty('SubscriberId is required'), isString],
    s.subscriberId,
    'subscriberId'
  ),
  ...optional(s, 'channels', [(v, p) => (Array.isArray(v) ? undefined : `${p} must be an array`)]),
  ...optional(s, 'firstName', [isString]),
  ...optional(s, 'lastName', [isString]),
  ...optional(s, 'email', [isEmail]),
  ...optional(s, 'phone', [isString]),
  ...optional(s, 'avatar', [isString]),
  ...optional(s, 'locale', [isLocale]),
  ...optional(s, 'timezone', [isTimeZone]),
  ...optional(s, 'data', [isObject]),
]

const tenantDto = (t: Obj) => [
  ...optional(t, 'identifier', [isString]),
  ...optional(t, 'name', [isString]),
]

/**
 * `@ValidateIf(v => typeof v !== 'string') @ValidateNested() @Type(() => Dto)`: a string passes,
 * anything else must be an object (or an array of them) whose members pass the DTO.
 */
function nestedDto(property: string, dto: (value: Obj) => string[]) {
  return (value: unknown): string[] => {
    if (typeof value === 'string') return []
    if (Array.isArray(value))
      // Each member is validated as the DTO; Nest keeps the members' messages, prefixed.
      return value.flatMap((item, index) =>
        isObj(item)
          ? dto(item).map((m) => `${property}.${index}.${m}`)
          : [`${property}.nested property ${property} must be either object or array`]
      )
    if (!isObj(value)) return [`nested property ${property} must be either object or array`]
    return dto(value).map((m) => `${property}.${m}`)
  }
}

const RECIPIENTS_MESSAGE = (property: string) =>
  `${property} must be a non-empty subscriberId string, an object with a non-empty subscriberId, ` +
  `a topic object with a non-empty topicKey, or a non-empty array of those`

/** Since 2025, `@IsTriggerRecipientsPayload()`: what `to` may hold. */
function isRecipient(recipient: unknown): boolean {
  if (typeof recipient === 'string') return recipient.length > 0
  if (!isObj(recipient)) return false
  if (recipient.type === 'Topic')
    return typeof recipient.topicKey === 'string' && recipient.topicKey.length > 0
  if ('subscriberId' in recipient)
    return typeof recipient.subscriberId === 'string' && recipient.subscriberId.length > 0
  if ('topicKey' in recipient)
    return typeof recipient.topicKey === 'string' && recipient.topicKey.length > 0
  return false
}

const isRecipientsPayload = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  (Array.isArray(value) ? value.length > 0 && value.every(isRecipient) : isRecipient(value))

const RECIPIENTS_DOC = {
  description:
    'a subscriberId, a subscriber object, a topic `{type: "Topic", topicKey}`, or an array of them',
}

const name = once(() =>
  field<string>('name', [isDefined, isString], {
    type: 'string',
    description: "the workflow's trigger identifier",
  })
)
const objectField = (property: string, description: string) =>
  field<Obj>(property, [isObject], { type: 'object', description }, { optional: true })
const stringField = (property: string, description: string) =>
  field<string>(property, [isString], { type: 'string', description }, { optional: true })

const payload = once(() => objectField('payload', 'the variables the templates render'))
const overrides = once(() => objectField('overrides', 'per channel and provider overrides'))
const bridgeUrl = once(() => stringField('bridgeUrl', 'the bridge endpoint (not simulated)'))
const transactionId = once(() =>
  stringField('transactionId', "generated in the generation's format when absent or empty")
)
const actorField = (dto: SubscriberDtoMessages) =>
  fieldWith<string | Obj>(
    { description: 'a subscriberId or a subscriber object; upserted as a subscriber' },
    nestedDto('actor', dto),
    { optional: true }
  )
const tenant = once(() =>
  fieldWith<string | Obj>(
    { description: 'a tenant identifier or object (the mock has no tenants)' },
    nestedDto('tenant', tenantDto),
    { optional: true }
  )
)
/** `@IsOptional() @ValidateIf(v => v !== null) @IsString() @IsNotEmpty()`. */
const agentId = once(() =>
  fieldWith<string | null>(
    { type: ['string', 'null'], description: 'an agent identifier (the mock has no agents)' },
    (v) => runChecks([isNotEmpty(), isString], v, 'agentId'),
    { optional: true }
  )
)
const context = once(() =>
  z
    .unknown()
    .optional()
    .meta({ type: 'object', description: 'trigger contexts (accepted, not simulated)' })
)

export interface TriggerBody {
  name: string
  to: unknown
  payload?: Obj | null
  overrides?: Obj | null
  transactionId?: string
  actor?: string | Obj | null
  tenant?: string | Obj | null
  bridgeUrl?: string
  agentId?: string | null
  context?: unknown
}

export const TriggerBody2024 = lazySchema(
  () =>
    z.object({
      name: name(),
      payload: payload(),
      bridgeUrl: bridgeUrl(),
      overrides: overrides(),
      to: field<unknown>('to', [isDefined], RECIPIENTS_DOC),
      transactionId: transactionId(),
      actor: actorField(subscriberDto2024),
      tenant: tenant(),
    }) as unknown as z.ZodType<TriggerBody>
)

const to2026 = once(() =>
  fieldWith<unknown>(RECIPIENTS_DOC, (v) => [
    ...runChecks([isDefined], v, 'to'),
    ...(isRecipientsPayload(v) ? [] : [RECIPIENTS_MESSAGE('to')]),
  ])
)

const triggerShape2026 = once(() => ({
  name: name(),
  payload: payload(),
  bridgeUrl: bridgeUrl(),
  overrides: overrides(),
  agentId: agentId(),
  to: to2026(),
  transactionId: transactionId(),
  actor: actorField(subscriberDto2026),
  tenant: tenant(),
  context: context(),
}))

export const TriggerBody2026 = lazySchema(
  () => z.object(triggerShape2026()) as unknown as z.ZodType<TriggerBody>
)

/** The messages a 2026 event gets inside a bulk body, each prefixed `events.<i>.`. */
function eventMessages2026(value: Obj): string[] {
  const parsed = z.object(triggerShape2026()).safeParse(value)
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message)
}

export interface BulkBody {
  events: unknown[]
}

const eventsDoc = {
  type: 'array',
  maxItems: 100,
  items: { type: 'object', description: 'a trigger body' },
}

/** 2024-10: `@IsArray() @ArrayNotEmpty() @ArrayMaxSize(100)`, members unchecked. */
export const BulkBody2024 = lazySchema(
  () =>
    z.object({
      events: fieldWith<unknown[]>(eventsDoc, (v) => [
        ...(Array.isArray(v) && v.length <= 100
          ? []
          : ['events must contain no more than 100 elements']),
        ...(Array.isArray(v) && v.length > 0 ? [] : ['events should not be empty']),
        ...(Array.isArray(v) ? [] : ['events must be an array']),
      ]),
    }) as unknown as z.ZodType<BulkBody>
)

/**
 * Since 2025: `@IsArray() @ArrayNotEmpty() @ValidateNested({ each: true })`, each member
 * validated as a trigger body (Nest then reports the members' messages only, prefixed); the
 * size limit moved to the command.
 */
const EACH_NESTED = 'each value in nested property events must be either object or array'
export const BulkBody2026 = lazySchema(
  () =>
    z.object({
      events: fieldWith<unknown[]>(eventsDoc, (v) => {
        if (!Array.isArray(v)) {
          const own = ['events should not be empty', 'events must be an array']
          return v === undefined || isObj(v) ? own : [...own, EACH_NESTED]
        }
        if (v.length === 0) return ['events should not be empty']
        return v.flatMap((event, index) =>
          isObj(event)
            ? eventMessages2026(event).map((m) => `events.${index}.${m}`)
            : [`events.${EACH_NESTED}`]
        )
      }),
    }) as unknown as z.ZodType<BulkBody>
)

export interface BroadcastBody {
  name: string
  payload: Obj
  overrides?: Obj | null
  transactionId?: string
  actor?: string | Obj | null
  tenant?: string | Obj | null
  agentId?: string | null
  context?: unknown
}

const requiredPayload = once(() =>
  field<Obj>('payload', [isObject], {
    type: 'object',
    description: 'required (an empty object will do)',
  })
)

export const BroadcastBody2024 = lazySchema(
  () =>
    z.object({
      name: name(),
      payload: requiredPayload(),
      overrides: overrides(),
      transactionId: transactionId(),
      actor: actorField(subscriberDto2024),
      tenant: tenant(),
    }) as unknown as z.ZodType<BroadcastBody>
)

export const BroadcastBody2026 = lazySchema(
  () =>
    z.object({
      name: name(),
      payload: requiredPayload(),
      overrides: overrides(),
      agentId: agentId(),
      transactionId: transactionId(),
      actor: actorField(subscriberDto2026),
      tenant: tenant(),
      context: context(),
    }) as unknown as z.ZodType<BroadcastBody>
)

export const TransactionParamsSchema = lazySchema(() => z.object({ transactionId: z.string() }))

export const TriggerResultSchema = lazySchema(() =>
  z
    .object({
      acknowledged: z.boolean(),
      status: z.enum([
        'error',
        'trigger_not_active',
        'no_workflow_active_steps_defined',
        'no_workflow_steps_defined',
        'processed',
        'no_tenant_found',
        'invalid_recipients',
      ]),
      error: z.array(z.string()).optional(),
      transactionId: z.string().optional(),
    })
    .meta({ id: 'TriggerEventResult' })
)
