import { z } from 'zod'

export const TopicSchema = z
  .object({
    _id: z.string(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    key: z.string(),
    name: z.string(),
    subscribers: z.array(z.string()),
    createdAt: z.string().optional().meta({ description: 'since the 2026-08 generation' }),
    updatedAt: z.string().optional().meta({ description: 'since the 2026-08 generation' }),
  })
  .meta({ id: 'Topic' })

export const TopicListSchema = z.object({
  page: z.number().int(),
  totalCount: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(TopicSchema),
})
