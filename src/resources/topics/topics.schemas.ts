import { z } from 'zod'
import { field } from '../../http/validate.js'
import { isInt, isString, min } from '../../http/rules.js'

export const MAX_TOPIC_PAGE_SIZE = 10

// Upstream reports Min before IsInt for each property, and page before pageSize.
export const ListTopicsQuerySchema = z.object({
  page: field<number>(
    'page',
    [min(0), isInt],
    { type: 'integer', minimum: 0, default: 0 },
    { optional: true }
  ),
  pageSize: field<number>(
    'pageSize',
    [min(0), isInt],
    { type: 'integer', minimum: 0, maximum: MAX_TOPIC_PAGE_SIZE, default: 10 },
    { optional: true }
  ),
  key: field<string>(
    'key',
    [isString],
    { type: 'string', description: 'exact, case-sensitive key' },
    { optional: true }
  ),
})

export const TopicSchema = z
  .object({
    _id: z.string(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    key: z.string(),
    name: z.string(),
    subscribers: z.array(z.string()),
  })
  .meta({ id: 'Topic' })

export const TopicListSchema = z.object({
  page: z.number().int(),
  totalCount: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(TopicSchema),
})
