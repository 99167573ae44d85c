import { z } from 'zod'
import { CommandValidationError, httpError, objectError, type ApiError } from '../../errors.js'
import { field, fieldWith } from '../../http/validate.js'
import { isBoolean, isDefined, isObject, isString, type Check } from '../../http/rules.js'
import { isObj, type Obj } from '../../objects.js'
import { subscribersV1_2024, subscribersV1_2026 } from './subscribers-v1.generations.js'
import { lazySchema } from '../../lazy-schema.js'

/** Upstream's ChatProviderIdEnum and PushProviderIdEnum, the providers 2026's DTO accepts. */
const CHAT_AND_PUSH_PROVIDERS = [
  'slack',
  'discord',
  'msteams',
  'mattermost',
  'ryver',
  'zulip',
  'grafana-on-call',
  'getstream',
  'rocket-chat',
  'whatsapp-business',
  'chat-webhook',
  'novu-slack',
  'fcm',
  'apns',
  'expo',
  'one-signal',
  'pushpad',
  'push-webhook',
  'pusher-beams',
  'appio',
] as const

const providerEnum: Check = (v) =>
  typeof v === 'string' && (CHAT_AND_PUSH_PROVIDERS as readonly string[]).includes(v)
    ? undefined
    : 'providerId must be a valid provider ID'

const credentialsBody = (providerChecks: Check[]) =>
  z.object({
    providerId: field<string>('providerId', [isDefined, ...providerChecks], { type: 'string' }),
    integrationIdentifier: field<string>(
      'integrationIdentifier',
      [isString],
      { type: 'string' },
      { optional: true }
    ),
    credentials: field<Obj>('credentials', [isDefined, isObject], {
      type: 'object',
      additionalProperties: true,
    }),
  })

const OnlineBody = lazySchema(() =>
  z.object({
    isOnline: field<boolean>('isOnline', [isDefined, isBoolean], { type: 'boolean' }),
  })
)

const MAX_BULK_SUBSCRIBERS = 500
const TOO_MANY = `subscribers must contain no more than ${MAX_BULK_SUBSCRIBERS} elements`

/**
 * The bulk body's messages: the array checks in upstream's order, then each element's own
 * (the v1 create DTO of the generation), prefixed with its path as Nest's pipe writes it.
 */
function bulkBody(element: z.ZodType, pipeLimit: boolean) {
  return z.object({
    subscribers: fieldWith<Obj[]>({ type: 'array', items: { type: 'object' } }, (v) => {
      const array = Array.isArray(v)
      const empty = !array || v.length === 0 ? ['subscribers should not be empty'] : []
      const outer = [
        ...(pipeLimit && !(array && v.length <= MAX_BULK_SUBSCRIBERS) ? [TOO_MANY] : []),
        ...empty,
        ...(array ? [] : ['subscribers must be an array']),
      ]
      if (!array) return outer
      if (v.length > MAX_BULK_SUBSCRIBERS) return outer
      return v
        .flatMap((item, index) => {
          if (!isObj(item))
            return [
              `subscribers.${index}.nested property subscribers must be either object or array`,
            ]
          const result = element.safeParse(item)
          return result.success
            ? []
            : result.error.issues.map((i) => `subscribers.${index}.${i.message}`)
        })
        .concat(outer)
    }),
  })
}

/** How the credential, online-status and bulk routes differ between generations. */
export interface SubscriberChannelsRules {
  credentialsBody: z.ZodType<Obj>
  onlineBody: z.ZodType<Obj>
  bulkBody: z.ZodType<Obj>
  /** 2026 refuses more than 500 in the command, after the DTO; 2024's DTO refuses them. */
  bulkTooMany(count: number): Error | undefined
  /** Device tokens per channel since 2025 (MAX_SUBSCRIBER_DEVICE_TOKENS_NUMBER's default). */
  maxDeviceTokens: number | undefined
  deleteCredentialsUnknown(subscriberId: string): ApiError
  /** Whether a v1 answer shows the online flag a new document has (the 2026 schema default). */
  showsOnlineDefault: boolean
}

export const subscriberChannels2024: SubscriberChannelsRules = {
  credentialsBody: lazySchema(() => credentialsBody([isString]) as unknown as z.ZodType<Obj>),
  onlineBody: lazySchema(() => OnlineBody as unknown as z.ZodType<Obj>),
  bulkBody: lazySchema(
    () => bulkBody(subscribersV1_2024.createBody, true) as unknown as z.ZodType<Obj>
  ),
  bulkTooMany: () => undefined,
  maxDeviceTokens: undefined,
  deleteCredentialsUnknown: (id) => httpError(404, `Subscriber not found for id ${id}`),
  showsOnlineDefault: false,
}

export const subscriberChannels2026: SubscriberChannelsRules = {
  credentialsBody: lazySchema(() => credentialsBody([providerEnum]) as unknown as z.ZodType<Obj>),
  onlineBody: lazySchema(() => OnlineBody as unknown as z.ZodType<Obj>),
  bulkBody: lazySchema(
    () => bulkBody(subscribersV1_2026.createBody, false) as unknown as z.ZodType<Obj>
  ),
  bulkTooMany: (count) =>
    count > MAX_BULK_SUBSCRIBERS
      ? new CommandValidationError('BulkCreateSubscribersCommand', [
          { property: 'subscribers', messages: [TOO_MANY], value: undefined },
        ])
      : undefined,
  maxDeviceTokens: 100,
  deleteCredentialsUnknown: (id) => httpError(404, `Subscriber '${id}' was not found`),
  showsOnlineDefault: true,
}

/** The 2026 device-token limit's 400, built from an object (so without `error`). */
export const tooManyTokens = (count: number, limit: number) =>
  objectError(400, {
    message: `Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is ${limit}, but got ${count} tokens.`,
    currentCount: count,
    limit,
  })
