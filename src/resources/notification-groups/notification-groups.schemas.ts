import { z } from 'zod'
import { field } from '../../http/validate.js'
import { isDefined, isString } from '../../http/rules.js'
import { lazySchema } from '../../lazy-schema.js'

// class-validator always reports IsDefined first, whatever the decorator order.
export const CreateGroupBodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isDefined, isString], { type: 'string' }),
  })
)

export const GroupIdParamsSchema = lazySchema(() =>
  z.object({
    id: z.string().meta({ description: 'workflow group id' }),
  })
)

export const NotificationGroupSchema = lazySchema(() =>
  z
    .object({
      _id: z.string(),
      name: z.string(),
      _environmentId: z.string(),
      _organizationId: z.string(),
      _parentId: z.string().optional(),
      createdAt: z.string(),
      updatedAt: z.string(),
      __v: z.number(),
      id: z.string().optional(),
    })
    .meta({ id: 'NotificationGroup' })
)

export const DeleteGroupResultSchema = lazySchema(() =>
  z.object({
    data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
  })
)
