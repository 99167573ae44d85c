import { z } from 'zod'
import { httpError, objectError, type ApiError } from '../../errors.js'
import { field } from '../../http/validate.js'
import { isArray, isDefined, isObject, isString, type Check } from '../../http/rules.js'
import { isEmail, isLocale, isTimeZone } from './checks.js'
import type { Obj } from '../../objects.js'
import { lazySchema, once } from '../../lazy-schema.js'

const text = (property: string, checks: Check[], nullable: boolean) =>
  field<string | null>(
    property,
    checks,
    { type: nullable ? ['string', 'null'] : 'string' },
    { optional: true }
  )

/** `@IsNotEmpty({ message })`. */
const isNotEmpty =
  (message: string): Check =>
  (v) =>
    v === '' || v === null || v === undefined ? message : undefined

const channelsField = once(() =>
  field<unknown[]>('channels', [isArray], { type: 'array' }, { optional: true })
)
const dataField = (checks: Check[]) =>
  field<Obj | null>(
    'data',
    checks,
    { type: 'object', additionalProperties: true },
    { optional: true }
  )

/** 2024-10's CreateSubscriberRequestDto, in its declaration order. */
const Create2024 = lazySchema(() =>
  z.object({
    subscriberId: field<string>('subscriberId', [isDefined, isString], { type: 'string' }),
    email: text('email', [isEmail], false),
    firstName: text('firstName', [isString], false),
    lastName: text('lastName', [isString], false),
    phone: text('phone', [isString], false),
    avatar: text('avatar', [isString], false),
    locale: text('locale', [isLocale], false),
    data: dataField([]),
    channels: channelsField(),
  })
)

/** Later servers: the subclass's `subscriberId` and `channels`, then the base fields (null allowed). */
const BASE_FIELDS_2026 = {
  firstName: lazySchema(() => text('firstName', [isString], true)),
  lastName: lazySchema(() => text('lastName', [isString], true)),
  email: lazySchema(() => text('email', [isEmail], true)),
  phone: lazySchema(() => text('phone', [isString], true)),
  avatar: lazySchema(() => text('avatar', [isString], true)),
  locale: lazySchema(() => text('locale', [isLocale], true)),
  timezone: lazySchema(() => text('timezone', [isTimeZone], true)),
  data: lazySchema(() => dataField([isObject])),
}

const Create2026 = lazySchema(() =>
  z.object({
    subscriberId: field<string>(
      'subscriberId',
      [isDefined, isNotEmpty('SubscriberId is required'), isString],
      { type: 'string', minLength: 1 }
    ),
    channels: channelsField(),
    ...BASE_FIELDS_2026,
  })
)

/** `@Transform(v => v === '' ? null : v)` on the older update's email. */
const emailOrNull = once(() =>
  z
    .unknown()
    .transform((v) => (v === '' ? null : v))
    .superRefine((v, ctx) => {
      if (v !== undefined && v !== null && isEmail(v, 'email'))
        ctx.addIssue({ code: 'custom', message: 'email must be an email' })
    })
    .meta({ type: ['string', 'null'], format: 'email' })
    // Every field of the DTO is optional: an absent email is no failure.
    .optional()
)

const Update2024 = lazySchema(() =>
  z.object({
    email: emailOrNull(),
    firstName: text('firstName', [isString], false),
    lastName: text('lastName', [isString], false),
    phone: text('phone', [isString], false),
    avatar: text('avatar', [isString], false),
    locale: text('locale', [isLocale], false),
    data: dataField([]),
  })
)

const Update2026 = lazySchema(() => z.object({ channels: channelsField(), ...BASE_FIELDS_2026 }))

/** How the v1 subscriber routes differ between generations. */
export interface SubscribersV1Rules {
  createBody: z.ZodType<Obj>
  updateBody: z.ZodType<Obj>
  /** The command that trims and checks `subscriberId` after the DTO. */
  createCommand: string
  /** 2024-10 flags a deleted subscriber (mongoose-delete); later servers remove it. */
  softDelete: boolean
  deleteUnknown(subscriberId: string): ApiError
}

export const subscribersV1_2024: SubscribersV1Rules = {
  createBody: lazySchema(() => Create2024 as unknown as z.ZodType<Obj>),
  updateBody: lazySchema(() => Update2024 as unknown as z.ZodType<Obj>),
  createCommand: 'CreateSubscriberCommand',
  softDelete: true,
  deleteUnknown: (id) => httpError(404, `Subscriber not found for id ${id}`),
}

export const subscribersV1_2026: SubscribersV1Rules = {
  createBody: lazySchema(() => Create2026 as unknown as z.ZodType<Obj>),
  updateBody: lazySchema(() => Update2026 as unknown as z.ZodType<Obj>),
  createCommand: 'CreateOrUpdateSubscriberCommand',
  softDelete: false,
  deleteUnknown: (id) =>
    objectError(404, { message: 'Subscriber was not found', externalSubscriberId: id }),
}
