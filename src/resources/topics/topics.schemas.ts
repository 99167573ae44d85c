import { z } from 'zod'
import { field, fieldWith, runChecks } from '../../http/validate.js'
import { isArray, isDefined, isString, max, type Check } from '../../http/rules.js'
import { arrayMaxSize, arrayMinSize, eachString, isNotEmpty, length } from './checks.js'
import { lazySchema, once } from '../../lazy-schema.js'

export const TopicSchema = lazySchema(() =>
  z
    .object({
      _id: z.string(),
      _environmentId: z.string(),
      _organizationId: z.string(),
      key: z.string(),
      name: z.string().optional().meta({ description: 'absent when a v2 create left it out' }),
      subscribers: z.array(z.string()),
      createdAt: z.string().optional().meta({ description: 'since the 2026-08 generation' }),
      updatedAt: z.string().optional().meta({ description: 'since the 2026-08 generation' }),
    })
    .meta({ id: 'Topic' })
)

export const TopicListSchema = lazySchema(() =>
  z.object({
    page: z.number().int(),
    totalCount: z.number().int(),
    pageSize: z.number().int(),
    data: z.array(TopicSchema),
  })
)

// ---------------------------------------------------------------------------------------------
// Request schemas: properties in the order upstream's DTOs report them, checks in the order
// class-validator runs them (`@IsDefined` first, then the decorators from the bottom up).

/**
 * `@ValidateNested({ each: true })` with `@Type(() => Object)`: a member that is no object fails
 * (an array member is looked into). Nest's pipe then keeps the members' messages only, each
 * prefixed with its path, and drops the property's own; with no member failing, the property's
 * own checks speak, followed by the nested check of a value that is neither object nor array.
 */
export function nestedEachMessages(property: string, own: Check[]) {
  const text = `each value in nested property ${property} must be either object or array`
  const members = (value: unknown[], path: string): string[] =>
    value.flatMap((item, index) => {
      if (Array.isArray(item)) return members(item, `${path}.${index}`)
      return item === null || typeof item !== 'object' ? [`${path}.${text}`] : []
    })
  return (value: unknown): string[] => {
    if (Array.isArray(value)) {
      const nested = members(value, property)
      return nested.length ? nested : runChecks(own, value, property)
    }
    const messages = runChecks(own, value, property)
    return value !== undefined && (value === null || typeof value !== 'object')
      ? [...messages, text]
      : messages
  }
}

export const TopicKeyParamsSchema = lazySchema(() => z.object({ topicKey: z.string() }))
export const TopicMemberParamsSchema = lazySchema(() =>
  z.object({
    topicKey: z.string(),
    externalSubscriberId: z.string(),
  })
)

// v1 writes

export const CreateTopicV1BodySchema = lazySchema(() =>
  z.object({
    key: field<string>('key', [isDefined, isString], { type: 'string' }),
    name: field<string>('name', [isDefined, isString], { type: 'string' }),
  })
)

export const RenameTopicV1BodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isDefined, isString], { type: 'string' }),
  })
)

/** Only the list is checked: its members go to the database as they are. */
export const TopicMembersV1BodySchema = lazySchema(() =>
  z.object({
    subscribers: field<unknown[]>('subscribers', [isDefined, isArray], {
      type: 'array',
      items: { type: 'string' },
      description: 'subscriberIds',
    }),
  })
)

// v2 topics

const queryText = (property: string, description: string) =>
  field<string>(property, [isString], { type: 'string', description }, { optional: true })

const cursorQuery = {
  after: lazySchema(() => queryText('after', 'the `next` of a page: the items after it')),
  before: lazySchema(() => queryText('before', 'the `previous` of a page: the items before it')),
  // @Transform(Number) then @Max(100): NaN fails it too; Min(1) is the command's.
  limit: lazySchema(() =>
    field<number>(
      'limit',
      [max(100)],
      { type: 'number', minimum: 1, maximum: 100, default: 10 },
      { optional: true }
    )
  ),
  orderDirection: lazySchema(() =>
    z
      .unknown()
      .optional()
      .meta({ type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' })
  ),
  orderBy: lazySchema(() => queryText('orderBy', 'a field of the document; `_id` by default')),
  includeCursor: lazySchema(() =>
    z
      .unknown()
      .optional()
      .meta({ type: 'string', enum: ['true', 'false'], description: 'only `true` includes it' })
  ),
}

export interface CursorQuery {
  after?: string
  before?: string
  limit?: number
  orderDirection?: unknown
  orderBy?: string
  includeCursor?: unknown
}

export const ListTopicsQuerySchema = lazySchema(
  () =>
    z.object({
      key: queryText('key', 'part of the key, any case'),
      name: queryText('name', 'part of the name, any case'),
      ...cursorQuery,
    }) as unknown as z.ZodType<CursorQuery & { key?: string; name?: string }>
)

export const UpsertTopicBodySchema = lazySchema(() =>
  z.object({
    key: field<string>('key', [length(1, 100), isNotEmpty(), isString], {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'letters, digits, `-`, `_`, `:` and `.`, or an email address',
    }),
    name: field<string>(
      'name',
      [length(0, 100), isString],
      { type: 'string', maxLength: 100 },
      { optional: true }
    ),
  })
)

export const FailIfExistsQuerySchema = lazySchema(() =>
  z.object({
    failIfExists: z
      .unknown()
      .optional()
      .meta({ type: 'boolean', description: 'only `true` refuses an existing key (409)' }),
  })
)

export const UpdateTopicBodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isNotEmpty(), isString], { type: 'string', minLength: 1 }),
  })
)

// v2 subscriptions

export const ListSubscriptionsQuerySchema = lazySchema(
  () =>
    z.object({
      subscriberId: queryText('subscriberId', 'exact subscriberId'),
      contextKeys: z
        .unknown()
        .optional()
        .meta({ type: 'array', items: { type: 'string' }, description: 'exact context keys' }),
      ...cursorQuery,
    }) as unknown as z.ZodType<CursorQuery & { subscriberId?: string; contextKeys?: unknown }>
)

const SUBSCRIPTION_ITEM_DOC = {
  anyOf: [
    { type: 'string', description: 'refused by the server: class-validator wants objects' },
    {
      type: 'object',
      required: ['subscriberId'],
      properties: {
        identifier: { type: 'string', maxLength: 512 },
        subscriberId: { type: 'string' },
        name: { type: 'string' },
      },
    },
  ],
}

export const CreateSubscriptionsBodySchema = lazySchema(() =>
  z.object({
    subscriberIds: field<string[]>(
      'subscriberIds',
      [
        arrayMinSize(1, 'At least one subscriber identifier is required'),
        arrayMaxSize(100, 'Cannot subscribe more than 100 subscribers at once'),
        eachString,
        isArray,
      ],
      { type: 'array', items: { type: 'string' }, maxItems: 100, deprecated: true },
      { optional: true }
    ),
    subscriptions: fieldWith<unknown[]>(
      { type: 'array', items: SUBSCRIPTION_ITEM_DOC, minItems: 1, maxItems: 100 },
      nestedEachMessages('subscriptions', [
        arrayMinSize(1, 'At least one subscription is required'),
        arrayMaxSize(100, 'Cannot subscribe more than 100 subscriptions at once'),
        isArray,
      ]),
      { optional: true }
    ),
    name: queryText('name', 'the name of a topic this creates (or renames)'),
    context: z.unknown().optional().meta({ type: 'object', description: 'accepted, not used' }),
    preferences: fieldWith<unknown[]>(
      { type: 'array', items: { type: 'object' }, description: 'accepted, not used' },
      nestedEachMessages('preferences', [isArray]),
      { optional: true }
    ),
  })
)

export const DeleteSubscriptionsBodySchema = lazySchema(() =>
  z.object({
    subscriberIds: field<string[]>(
      'subscriberIds',
      [
        arrayMinSize(1, 'At least one subscriber identifier is required'),
        arrayMaxSize(100, 'Cannot unsubscribe more than 100 subscribers at once'),
        eachString,
        isArray,
      ],
      { type: 'array', items: { type: 'string' }, maxItems: 100, deprecated: true },
      { optional: true }
    ),
    subscriptions: field<unknown[]>(
      'subscriptions',
      [
        arrayMinSize(1, 'At least one subscription is required'),
        arrayMaxSize(100, 'Cannot unsubscribe more than 100 subscriptions at once'),
        isArray,
      ],
      {
        type: 'array',
        maxItems: 100,
        items: {
          anyOf: [
            { type: 'string' },
            {
              type: 'object',
              properties: { identifier: { type: 'string' }, subscriberId: { type: 'string' } },
            },
          ],
        },
      },
      { optional: true }
    ),
  })
)

// Responses (for the OpenAPI document)

export const TopicV2Schema = lazySchema(() =>
  z
    .object({
      _id: z.string(),
      name: z.string().optional(),
      key: z.string(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'TopicV2' })
)

export const TopicV2ListSchema = lazySchema(() =>
  z.object({
    data: z.array(TopicV2Schema),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    totalCount: z.number().int(),
    totalCountCapped: z.boolean(),
  })
)

const SubscriptionSubscriberSchema = once(() =>
  z.object({
    _id: z.string(),
    subscriberId: z.string(),
    avatar: z.string().nullable().optional(),
    firstName: z.string().nullable().optional(),
    lastName: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
)

const SubscriptionSchema = once(() =>
  z
    .object({
      _id: z.string(),
      identifier: z.string(),
      name: z.string().optional(),
      topic: z.object({ _id: z.string(), key: z.string(), name: z.string().optional() }),
      subscriber: SubscriptionSubscriberSchema().nullable(),
      createdAt: z.string().meta({ description: 'empty for a subscription this request created' }),
      updatedAt: z.string(),
    })
    .meta({ id: 'Subscription' })
)

const SubscriptionErrorSchema = once(() =>
  z.object({
    subscriberId: z.string().optional(),
    code: z.string(),
    message: z.string(),
  })
)

export const SubscriptionsResultSchema = lazySchema(() =>
  z.object({
    data: z.array(SubscriptionSchema()),
    meta: z.object({ totalCount: z.number(), successful: z.number(), failed: z.number() }),
    errors: z.array(SubscriptionErrorSchema()).optional(),
  })
)

export const TopicSubscriptionListSchema = lazySchema(() =>
  z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        identifier: z.string(),
        topic: TopicV2Schema,
        createdAt: z.string(),
        subscriber: SubscriptionSubscriberSchema(),
      })
    ),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    totalCount: z.number().int(),
    totalCountCapped: z.boolean(),
  })
)
