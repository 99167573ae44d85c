import { z } from 'zod'
import { httpError, InternalError, type ApiError } from '../../errors.js'
import { field } from '../../http/validate.js'
import { isDefined, isEnum, isInt, max, min, type Check } from '../../http/rules.js'
import { lazySchema } from '../../lazy-schema.js'

/** How a subscriber's inbox, read through the API key, differs between generations (subscriber facts §4). */
export interface InboxRules {
  feedQuery: z.ZodType<{ page?: number; limit?: number }>
  /** 2024-10 passes a negative page to MongoDB, which refuses it. */
  negativePage(): void
  markAsBody: z.ZodType<{ messageId?: unknown; markAs: string }>
  /** The ids a mark-as names: 2024-10 splits a text on commas and answers 400 for none. */
  markAsIds(messageId: unknown): string[]
  /** 2024-10 answers every message with those ids in the environment, later only the subscriber's. */
  markAsAnswersForeign: boolean
  /** The message as the mark-as answer shows it. */
  markAsDocument(message: Record<string, unknown>): Record<string, unknown>
  /** The unseen count's `limit`: 2024-10 validates 0, later reads it as 100. */
  unseenLimit(sent: string | undefined): number
  /** The v2 inbox routes (2025 on). */
  v2: boolean
}

const MARKS = ['read', 'seen', 'unread', 'unseen']
const pageChecks = (extra: Check[]) => [...extra, isInt]

const feedQuery = (pageChecks: Check[]) =>
  z.object({
    page: field<number>('page', pageChecks, { type: 'integer', default: 0 }, { optional: true }),
    limit: field<number>(
      'limit',
      [max(100), min(1), isInt],
      { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      { optional: true }
    ),
  })

const markAs = lazySchema(() =>
  field<string>('markAs', [isDefined, isEnum(MARKS)], { type: 'string', enum: MARKS })
)

const ID_LIST_MESSAGE =
  'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds'
const isId = (v: unknown) => typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)
const isIdOrIds: Check = (v) =>
  isId(v) || (Array.isArray(v) && v.length > 0 && v.every(isId)) ? undefined : ID_LIST_MESSAGE

/** The fields upstream's `MessageResponseDto` maps, in its order. */
const RESPONSE_FIELDS = [
  '_id', '_templateId', '_environmentId', '_messageTemplateId', '_organizationId', '_notificationId',
  '_subscriberId', 'templateIdentifier', 'createdAt', 'lastSeenDate', 'lastReadDate', 'content',
  'transactionId', 'subject', 'channel', 'read', 'seen', 'snoozedUntil', 'deliveredAt', 'email',
  'phone', 'directWebhookUrl', 'providerId', 'deviceTokens', 'title', 'cta', '_feedId', 'status',
  'errorId', 'errorText', 'payload', 'overrides',
] // prettier-ignore

/** The older controllers' ids: a text split on commas, none a 400, a non-ObjectId MongoDB's cast error. */
export function splitMessageIds(messageId: unknown): string[] {
  const ids = typeof messageId === 'string' ? messageId.split(',') : messageId
  if (!ids || (Array.isArray(ids) && !ids.length)) throw httpError(400, 'messageId is required')
  const list = ([] as unknown[]).concat(ids).map(String)
  if (!list.every(isId))
    throw new InternalError('BSONError: input must be a 24 character hex string')
  return list
}

export const inbox2024: InboxRules = {
  feedQuery: lazySchema(() => feedQuery(pageChecks([]))),
  negativePage: () => {
    throw new InternalError('MongoDB refuses a negative skip')
  },
  markAsBody: lazySchema(
    () => z.object({ messageId: z.unknown().optional(), markAs }) as InboxRules['markAsBody']
  ),
  markAsIds: splitMessageIds,
  markAsAnswersForeign: true,
  markAsDocument: (m) => m,
  unseenLimit: (sent) => (sent === undefined ? 100 : Number(sent)),
  v2: false,
}

export const inbox2026: InboxRules = {
  feedQuery: lazySchema(() => feedQuery(pageChecks([min(0)]))),
  negativePage: () => undefined,
  markAsBody: lazySchema(() =>
    z.object({
      messageId: field<unknown>('messageId', [isDefined, isIdOrIds], {
        oneOf: [{ type: 'string' }, { type: 'array' }],
      }),
      markAs,
    })
  ),
  markAsIds: (messageId) => ([] as unknown[]).concat(messageId).map(String),
  markAsAnswersForeign: false,
  markAsDocument(m) {
    const out: Record<string, unknown> = {}
    for (const name of RESPONSE_FIELDS)
      if (m[name] !== undefined) out[name] = m[name]
      else if (name === '_feedId') out[name] = null
    return out
  },
  unseenLimit: (sent) => Number(sent) || 100,
  v2: true,
}

/** The unknown-subscriber answers, one per upstream use case. */
export const inboxErrors = {
  feed: (id: string): ApiError =>
    httpError(
      400,
      `Subscriber not found for this environment with the id: ${id}. Make sure to create a subscriber before fetching the feed.`
    ),
  unseen: (id: string, envId: string): ApiError =>
    httpError(
      400,
      `Subscriber ${id} is not exist in environment ${envId}, please provide a valid subscriber identifier`
    ),
  markAs: (id: string): ApiError => httpError(404, `Subscriber ${id} not found`),
  markAll: (id: string, envId: string): ApiError =>
    httpError(
      404,
      `Subscriber ${id} does not exist in environment ${envId}, please provide a valid subscriber identifier`
    ),
  action: (id: string): ApiError =>
    httpError(
      400,
      `Subscriber with the id: ${id} was not found for this environment. Make sure to create a subscriber before trying to modify it.`
    ),
}
