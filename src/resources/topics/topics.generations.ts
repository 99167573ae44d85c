import { z } from 'zod'
import { badRequest, CommandValidationError, type FieldViolation } from '../../errors.js'
import { field } from '../../http/validate.js'
import { isInt, isString, max, min, type Check } from '../../http/rules.js'
import type { Subscription, Topic } from './topics.store.js'
import { lazySchema } from '../../lazy-schema.js'

const MAX_TOPIC_PAGE_SIZE = 10

interface ListTopicsQuery {
  page?: number
  pageSize?: number
  key?: string
  name?: string
}

/** How the topic routes differ between generations. */
export interface TopicsRules {
  /** Whether the server has /v2/topics (and its subscriptions): upstream added them in 2025. */
  v2: boolean
  /** What the request DTO validates (the pipe). */
  listQuery: z.ZodType<ListTopicsQuery>
  /** The page and size after the command's or the use case's own checks. */
  paging(query: ListTopicsQuery): { page: number; pageSize: number }
  /** The newer server filters on `name`; the older one ignores it as an unknown parameter. */
  filtersByName: boolean
  /** A topic as the v1 routes project it (list, get, rename). */
  listItem(topic: Topic): Record<string, unknown>
  /** POST /v1/topics: the newer command trims the key and the name (`@Transform`). */
  trimsOnCreate: boolean
  /** PATCH /v1/topics/{key}: the newer use case refuses an empty name (400 `Name is required`). */
  requiresName: boolean
  /** GET /v1/topics/{key}/subscribers/{id}: the membership as answered. */
  member(subscription: Subscription): Record<string, unknown>
}

const keyField = lazySchema(() =>
  field<string>(
    'key',
    [isString],
    { type: 'string', description: 'exact, case-sensitive key' },
    { optional: true }
  )
)

const pageDoc = { type: 'integer', minimum: 0, default: 0 }
const pageSizeDoc = { type: 'integer', minimum: 0, maximum: MAX_TOPIC_PAGE_SIZE, default: 10 }

export const topics2024: TopicsRules = {
  // Upstream reports Min before IsInt for each property, and page before pageSize.
  listQuery: lazySchema(() =>
    z.object({
      page: field<number>('page', [min(0), isInt], pageDoc, { optional: true }),
      pageSize: field<number>('pageSize', [min(0), isInt], pageSizeDoc, { optional: true }),
      key: keyField,
    })
  ),
  paging({ page = 0, pageSize = 10 }) {
    // The typo is upstream's.
    if (pageSize > MAX_TOPIC_PAGE_SIZE) throw badRequest('Page size can not be larger then 10')
    return { page, pageSize }
  },
  filtersByName: false,
  listItem: ({ createdAt: _created, updatedAt: _updated, ...item }) => item,
  v2: false,
  trimsOnCreate: false,
  requiresName: false,
  // The whole membership document (no identifier then), as the older use case spread it.
  member: (s) => ({
    _id: s._id,
    _environmentId: s._environmentId,
    _organizationId: s._organizationId,
    _subscriberId: s._subscriberId,
    _topicId: s._topicId,
    topicKey: s.topicKey,
    externalSubscriberId: s.externalSubscriberId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    __v: 0,
    id: s._id,
  }),
}

const PAGE_CHECKS: Record<'page' | 'pageSize', Check[]> = {
  page: [min(0), isInt],
  pageSize: [max(MAX_TOPIC_PAGE_SIZE), min(0), isInt],
}

export const topics2026: TopicsRules = {
  // The DTO only turns page and pageSize into numbers; FilterTopicsCommand checks them.
  listQuery: lazySchema(() =>
    z.object({
      page: z.unknown().optional().meta(pageDoc) as z.ZodType<number | undefined>,
      pageSize: z.unknown().optional().meta(pageSizeDoc) as z.ZodType<number | undefined>,
      key: keyField,
      name: field<string>(
        'name',
        [isString],
        { type: 'string', description: 'exact, case-sensitive name' },
        { optional: true }
      ),
    })
  ),
  paging(query) {
    const violations: FieldViolation[] = []
    for (const property of ['page', 'pageSize'] as const) {
      const value = query[property]
      if (value === undefined || value === null) continue
      const messages = PAGE_CHECKS[property]
        .map((check) => check(value, property))
        .filter((m): m is string => m !== undefined)
      if (messages.length) violations.push({ property, messages, value })
    }
    if (violations.length) throw new CommandValidationError('FilterTopicsCommand', violations)
    return { page: query.page ?? 0, pageSize: query.pageSize ?? 10 }
  },
  filtersByName: true,
  listItem: (topic) => ({ ...topic }),
  v2: true,
  trimsOnCreate: true,
  requiresName: true,
  member: (s) => ({
    externalSubscriberId: s.externalSubscriberId,
    topicKey: s.topicKey,
    _topicId: s._topicId,
    _organizationId: s._organizationId,
    _environmentId: s._environmentId,
    _subscriberId: s._subscriberId,
  }),
}
