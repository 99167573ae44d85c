import { z } from 'zod'
import { field } from '../../http/validate.js'
import { isDefined, isString } from '../../http/rules.js'

// class-validator always reports IsDefined first, whatever the decorator order.
export const CreateGroupBodySchema = z.object({
  name: field<string>('name', [isDefined, isString], { type: 'string' }),
})

export const GroupIdParamsSchema = z.object({
  id: z.string().meta({ description: 'workflow group id' }),
})

export const NotificationGroupSchema = z
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

export const DeleteGroupResultSchema = z.object({
  data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
})
