import { type Obj } from '../../objects.js'
import { CHANNELS, CHANNELS_WITH_TOOL } from '../../channels.js'
import { z } from 'zod'
import {
  badRequest,
  CommandValidationError,
  httpError,
  type ApiError,
  type FieldViolation,
} from '../../errors.js'
import { isInt, max, min, type Check } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Notification } from './notifications.store.js'
import { feedItem2024, feedItem2026 } from './notifications.render.js'
import { lazySchema } from '../../lazy-schema.js'

/** The list query as the route reads it: strings, or arrays when a name repeats. */
export interface FeedQuery {
  channels?: unknown
  templates?: unknown
  emails?: unknown
  search?: unknown
  subscriberIds?: unknown
  transactionId?: unknown
  page?: unknown
  limit?: unknown
  topicKey?: unknown
  severity?: unknown
  after?: unknown
  before?: unknown
}

export interface FeedCommand {
  page: number
  limit: number
  channels?: string[]
  templates?: string[]
  emails: string[]
  search?: string
  subscriberIds: string[]
  transactionIds?: string[]
  topicKey?: string
  severity?: string[]
  after?: string
  before?: string
}

/** How the activity feed routes differ between generations. */
export interface NotificationsRules {
  /** What the request DTO validates (the pipe). */
  listQuery: z.ZodType<FeedQuery>
  /** The controller's mapping and GetActivityFeedCommand's checks. */
  command(query: FeedQuery): FeedCommand
  /** Page size: fixed at 10 in 2024-10; `limit` (1..50) since. */
  item(env: Environment, notification: Notification): Obj
  /** GET /v1/notifications/{id} for an id no notification has. */
  missing(id: string): { data: null } | ApiError
}

const asList = (value: unknown): string[] | undefined =>
  value === undefined || value === null || value === ''
    ? undefined
    : Array.isArray(value)
      ? value.map(String)
      : [String(value)]

const isMongoId = (v: unknown) => typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)

/** GetActivityFeedCommand's checks (the same in both generations for these properties). */
function commandViolations(command: FeedCommand, channels: readonly string[]): FieldViolation[] {
  const out: FieldViolation[] = []
  const add = (property: string, messages: string[], value: unknown) => {
    if (messages.length) out.push({ property, messages, value })
  }
  add(
    'page',
    Number.isFinite(command.page)
      ? []
      : ['page must be a number conforming to the specified constraints'],
    command.page
  )
  add(
    'limit',
    Number.isFinite(command.limit)
      ? []
      : ['limit must be a number conforming to the specified constraints'],
    command.limit
  )
  if (command.channels)
    add(
      'channels',
      command.channels.every((c) => channels.includes(c))
        ? []
        : [`each value in channels must be one of the following values: ${channels.join(', ')}`],
      command.channels
    )
  if (command.templates)
    add(
      'templates',
      command.templates.every(isMongoId) ? [] : ['each value in templates must be a mongodb id'],
      command.templates
    )
  return out
}

const listDoc = (description: string) => ({
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  description,
})

const FILTERS = {
  channels: lazySchema(() => z.unknown().optional().meta(listDoc('channel types; any of them'))),
  templates: lazySchema(() => z.unknown().optional().meta(listDoc('workflow ids'))),
  emails: lazySchema(() => z.unknown().optional().meta(listDoc("subscribers' email addresses"))),
  search: lazySchema(() => z.unknown().optional().meta({ type: 'string', deprecated: true })),
  subscriberIds: lazySchema(() => z.unknown().optional().meta(listDoc('subscriberIds'))),
}

export const notifications2024: NotificationsRules = {
  // Nothing in the older DTO is validated; the command checks what the controller made.
  listQuery: lazySchema(
    () =>
      z.object({
        ...FILTERS,
        page: z.unknown().optional().meta({ type: 'number', default: 0 }),
        transactionId: z.unknown().optional().meta({ type: 'string' }),
      }) as z.ZodType<FeedQuery>
  ),
  command(query) {
    const command: FeedCommand = {
      page: query.page ? Number(query.page) : 0,
      limit: 10,
      channels: asList(query.channels),
      templates: asList(query.templates),
      emails: asList(query.emails) ?? [],
      subscriberIds: asList(query.subscriberIds) ?? [],
      ...(query.search !== undefined ? { search: query.search as string } : {}),
      ...(query.transactionId ? { transactionIds: [query.transactionId as string] } : {}),
    }
    const violations = commandViolations(command, CHANNELS)
    if (query.search !== undefined && typeof query.search !== 'string')
      violations.push({
        property: 'search',
        messages: ['search must be a string'],
        value: query.search,
      })
    if (query.transactionId !== undefined && typeof query.transactionId !== 'string')
      violations.push({
        property: 'transactionId',
        messages: ['transactionId must be a string'],
        value: query.transactionId,
      })
    if (violations.length) throw new CommandValidationError('GetActivityFeedCommand', violations)
    return command
  },
  item: feedItem2024,
  missing: () => ({ data: null }),
}

const numberDoc = (extra: Obj) => ({ type: 'integer', ...extra })

/** `@IsOptional() @Type(() => Number)` then the checks: a text becomes a number first. */
function numeric(property: string, checks: Check[], doc: Obj) {
  return z
    .unknown()
    .transform((v) =>
      v === undefined || v === null ? undefined : Array.isArray(v) ? NaN : Number(v)
    )
    .superRefine((value, ctx) => {
      if (value === undefined) return
      for (const check of checks) {
        const message = check(value, property)
        if (message) ctx.addIssue({ code: 'custom', message })
      }
    })
    .optional()
    .meta(doc)
}

function checkDate(value: unknown, name: 'after' | 'before'): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const text = String(value)
  if (Number.isNaN(new Date(text).getTime()))
    throw badRequest(
      `Invalid date format for parameter '${name}': ${text}. Please provide a valid ISO 8601 date string.`
    )
  return new Date(text).toISOString()
}

export const notifications2026: NotificationsRules = {
  listQuery: lazySchema(
    () =>
      z.object({
        ...FILTERS,
        severity: z.unknown().optional().meta(listDoc('severity levels')),
        page: numeric('page', [min(0), isInt], numberDoc({ minimum: 0, default: 0 })),
        limit: numeric(
          'limit',
          [max(50), min(1), isInt],
          numberDoc({ minimum: 1, maximum: 50, default: 10 })
        ),
        transactionId: z.unknown().optional().meta(listDoc('transaction ids')),
        topicKey: z.unknown().optional().meta({ type: 'string' }),
        subscriptionId: z
          .unknown()
          .optional()
          .meta({ type: 'string', description: 'not simulated' }),
        contextKeys: z.unknown().optional().meta(listDoc('not simulated')),
        after: z.unknown().optional().meta({ type: 'string', format: 'date-time' }),
        before: z.unknown().optional().meta({ type: 'string', format: 'date-time' }),
      }) as z.ZodType<FeedQuery>
  ),
  command(query) {
    const command: FeedCommand = {
      page: query.page === undefined ? 0 : (query.page as number),
      limit: query.limit === undefined ? 10 : (query.limit as number),
      channels: asList(query.channels),
      templates: asList(query.templates),
      emails: asList(query.emails) ?? [],
      subscriberIds: asList(query.subscriberIds) ?? [],
      ...(query.search !== undefined ? { search: String(query.search) } : {}),
      ...(query.transactionId ? { transactionIds: asList(query.transactionId) } : {}),
      ...(typeof query.topicKey === 'string' && query.topicKey ? { topicKey: query.topicKey } : {}),
      ...(query.severity ? { severity: asList(query.severity) } : {}),
    }
    const violations = commandViolations(command, CHANNELS_WITH_TOOL)
    if (violations.length) throw new CommandValidationError('GetActivityFeedCommand', violations)
    const after = checkDate(query.after, 'after')
    const before = checkDate(query.before, 'before')
    if (after && before && after > before)
      throw httpError(
        400,
        'Invalid date range: start date (after) must be earlier than end date (before)'
      )
    return { ...command, ...(after ? { after } : {}), ...(before ? { before } : {}) }
  },
  item: feedItem2026,
  missing: () => httpError(404, 'Notification not found'),
}
