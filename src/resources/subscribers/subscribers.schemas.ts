import { z } from 'zod'
import { field } from '../../http/validate.js'
import { isDefined, isObject, isString, type Check } from '../../http/rules.js'
import { isNotEmpty } from '../topics/checks.js'
import { isEmail, isLocale, isTimeZone } from './checks.js'
import { lazySchema, once } from '../../lazy-schema.js'

const nullableText = (property: string, checks: Check[], doc: Record<string, unknown>) =>
  field<string | null>(property, checks, { ...doc, type: ['string', 'null'] }, { optional: true })

/**
 * `BaseSubscriberFieldsDto`: each field optional, null allowed (`@ValidateIf(v !== null)`),
 * in its declaration order (the order class-validator reports them in, after the subclass's).
 */
const baseFields = {
  firstName: lazySchema(() => nullableText('firstName', [isString], {})),
  lastName: lazySchema(() => nullableText('lastName', [isString], {})),
  email: lazySchema(() => nullableText('email', [isEmail], { format: 'email' })),
  phone: lazySchema(() => nullableText('phone', [isString], {})),
  avatar: lazySchema(() => nullableText('avatar', [isString], {})),
  locale: lazySchema(() =>
    nullableText('locale', [isLocale], { description: 'a language tag: en, en-US, en_US' })
  ),
  timezone: lazySchema(() =>
    nullableText('timezone', [isTimeZone], { description: 'an IANA time zone' })
  ),
  data: lazySchema(() =>
    field<Record<string, unknown> | null>(
      'data',
      [isObject],
      { type: ['object', 'null'], additionalProperties: true },
      { optional: true }
    )
  ),
}

export type SubscriberFieldsBody = {
  [K in keyof typeof baseFields]?: z.output<(typeof baseFields)[K]>
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value)

/** `subscriberId` is trimmed (`@Transform`) before it is checked. */
const subscriberIdField = once(
  () =>
    z
      .unknown()
      .transform(trimmed)
      .superRefine((value, ctx) => {
        for (const check of [isDefined, isNotEmpty('SubscriberId is required'), isString]) {
          const message = check(value, 'subscriberId')
          if (message) ctx.addIssue({ code: 'custom', message })
        }
      })
      .meta({
        type: 'string',
        minLength: 1,
        description: 'trimmed',
      }) as unknown as z.ZodType<string>
)

export const CreateSubscriberBodySchema = lazySchema(
  () =>
    z.object({
      subscriberId: subscriberIdField(),
      ...baseFields,
    }) as unknown as z.ZodType<SubscriberFieldsBody & { subscriberId: string }>
)

export const PatchSubscriberBodySchema = lazySchema(
  () => z.object(baseFields) as unknown as z.ZodType<SubscriberFieldsBody>
)

export const SubscriberIdParamsSchema = lazySchema(() => z.object({ subscriberId: z.string() }))

const queryText = (property: string, description: string) =>
  field<string>(property, [isString], { type: 'string', description }, { optional: true })

export const ListSubscribersQuerySchema = lazySchema(
  () =>
    z.object({
      email: queryText('email', 'part of the email, any case'),
      name: queryText('name', 'part of "firstName lastName", any case'),
      phone: queryText('phone', 'part of the phone number'),
      subscriberId: queryText('subscriberId', 'exact subscriberId'),
      after: queryText('after', 'the `next` of a page'),
      before: queryText('before', 'the `previous` of a page'),
      limit: z.unknown().optional().meta({ type: 'number', minimum: 1, maximum: 100, default: 10 }),
      orderDirection: z
        .unknown()
        .optional()
        .meta({ type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' }),
      orderBy: queryText('orderBy', '`_id` (default) or `updatedAt`'),
      includeCursor: z
        .unknown()
        .optional()
        .meta({ type: 'string', enum: ['true', 'false'] }),
    }) as unknown as z.ZodType<{
      email?: string
      name?: string
      phone?: string
      subscriberId?: string
      after?: string
      before?: string
      limit?: unknown
      orderDirection?: unknown
      orderBy?: string
      includeCursor?: unknown
    }>
)

// Responses (for the OpenAPI document)

export const SubscriberV2Schema = lazySchema(() =>
  z
    .object({
      _id: z.string(),
      firstName: z.string().nullable().optional(),
      lastName: z.string().nullable().optional(),
      email: z.string().nullable().optional(),
      phone: z.string().nullable().optional(),
      avatar: z.string().nullable().optional(),
      subscriberId: z.string(),
      createdAt: z.string(),
      updatedAt: z.string(),
      _environmentId: z.string(),
      _organizationId: z.string(),
      deleted: z.boolean(),
      data: z.record(z.string(), z.unknown()).nullable().optional(),
      lastOnlineAt: z.string().nullable(),
      isOnline: z.boolean().nullable(),
      channels: z.array(z.unknown()),
      locale: z.string().nullable().optional(),
      timezone: z.string().nullable().optional(),
    })
    .meta({ id: 'SubscriberV2' })
)

export const SubscriberV2ListSchema = lazySchema(() =>
  z.object({
    data: z.array(SubscriberV2Schema),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    totalCount: z.number().int(),
    totalCountCapped: z.boolean(),
  })
)
