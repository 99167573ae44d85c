import { z } from 'zod'
import { badRequest, CommandValidationError, type FieldViolation } from '../../errors.js'
import { field } from '../../http/validate.js'
import { isInt, isString, max, min, type Check } from '../../http/rules.js'
import type { Topic } from './topics.store.js'

export const MAX_TOPIC_PAGE_SIZE = 10

export interface ListTopicsQuery {
  page?: number
  pageSize?: number
  key?: string
  name?: string
}

/** How GET /v1/topics differs between generations. */
export interface TopicsRules {
  /** What the request DTO validates (the pipe). */
  listQuery: z.ZodType<ListTopicsQuery>
  /** The page and size after the command's or the use case's own checks. */
  paging(query: ListTopicsQuery): { page: number; pageSize: number }
  /** The newer server filters on `name`; the older one ignores it as an unknown parameter. */
  filtersByName: boolean
  /** A topic as the list projects it. */
  listItem(topic: Topic): Record<string, unknown>
}

const keyField = field<string>(
  'key',
  [isString],
  { type: 'string', description: 'exact, case-sensitive key' },
  { optional: true }
)

const pageDoc = { type: 'integer', minimum: 0, default: 0 }
const pageSizeDoc = { type: 'integer', minimum: 0, maximum: MAX_TOPIC_PAGE_SIZE, default: 10 }

export const topics2024: TopicsRules = {
  // Upstream reports Min before IsInt for each property, and page before pageSize.
  listQuery: z.object({
    page: field<number>('page', [min(0), isInt], pageDoc, { optional: true }),
    pageSize: field<number>('pageSize', [min(0), isInt], pageSizeDoc, { optional: true }),
    key: keyField,
  }),
  paging({ page = 0, pageSize = 10 }) {
    // The typo is upstream's.
    if (pageSize > MAX_TOPIC_PAGE_SIZE) throw badRequest('Page size can not be larger then 10')
    return { page, pageSize }
  },
  filtersByName: false,
  listItem: ({ createdAt: _created, updatedAt: _updated, ...item }) => item,
}

const PAGE_CHECKS: Record<'page' | 'pageSize', Check[]> = {
  page: [min(0), isInt],
  pageSize: [max(MAX_TOPIC_PAGE_SIZE), min(0), isInt],
}

export const topics2026: TopicsRules = {
  // The DTO only turns page and pageSize into numbers; FilterTopicsCommand checks them.
  listQuery: z.object({
    page: z.unknown().optional().meta(pageDoc) as z.ZodType<number | undefined>,
    pageSize: z.unknown().optional().meta(pageSizeDoc) as z.ZodType<number | undefined>,
    key: keyField,
    name: field<string>(
      'name',
      [isString],
      { type: 'string', description: 'exact, case-sensitive name' },
      { optional: true }
    ),
  }),
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
}
