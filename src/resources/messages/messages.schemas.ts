import { z } from 'zod'
import { field } from '../../http/validate.js'
import { isMongoId } from '../../http/rules.js'
import { CHANNELS } from '../../channels.js'
import { lazySchema, once } from '../../lazy-schema.js'

const isNumber = (v: unknown, p: string) =>
  typeof v === 'number' && Number.isFinite(v)
    ? undefined
    : `${p} must be a number conforming to the specified constraints`

export const TransactionParamsSchema = lazySchema(() => z.object({ transactionId: z.string() }))
export const MessageIdParamsSchema = lazySchema(() =>
  z.object({
    messageId: field<string>('messageId', [isMongoId], {
      type: 'string',
      pattern: '^[0-9a-fA-F]{24}$',
    }),
  })
)

// Upstream leaves channel, subscriberId and transactionId unvalidated on this route.
export const ListMessagesQuerySchema = lazySchema(
  () =>
    z.object({
      channel: z
        .unknown()
        .optional()
        .meta({ type: 'string', enum: [...CHANNELS] }),
      subscriberId: z.unknown().optional().meta({ type: 'string' }),
      transactionId: z
        .unknown()
        .optional()
        .meta({
          description: 'one transaction id, or the parameter repeated for several',
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        }),
      page: field<number>('page', [isNumber], { type: 'number', default: 0 }, { optional: true }),
      limit: field<number>(
        'limit',
        [isNumber],
        { type: 'number', default: 10, maximum: 1000 },
        { optional: true }
      ),
    }) as z.ZodType<{
      channel?: unknown
      subscriberId?: unknown
      transactionId?: unknown
      page?: number
      limit?: number
    }>
)

const SubscriberSchema = once(() =>
  z.looseObject({
    _id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    avatar: z.string().nullable(),
    subscriberId: z.string(),
    id: z.string(),
  })
)

const MessageSchema = once(() =>
  z
    .looseObject({
      _id: z.string(),
      _templateId: z.string(),
      _environmentId: z.string(),
      _messageTemplateId: z.string(),
      _organizationId: z.string(),
      _notificationId: z.string(),
      _subscriberId: z.string(),
      _jobId: z.string(),
      templateIdentifier: z.string(),
      transactionId: z.string(),
      channel: z.string(),
      content: z.unknown(),
      status: z.string(),
      seen: z.boolean(),
      read: z.boolean(),
      archived: z.boolean(),
      deleted: z.boolean(),
      subscriber: SubscriberSchema(),
      actorSubscriber: z.null(),
      createdAt: z.string(),
      updatedAt: z.string(),
      id: z.string(),
    })
    .meta({ id: 'Message' })
)

export const MessageListSchema = lazySchema(() =>
  z.object({
    page: z.number(),
    totalCount: z.number(),
    hasMore: z.boolean(),
    pageSize: z.number(),
    data: z.array(MessageSchema()),
  })
)
