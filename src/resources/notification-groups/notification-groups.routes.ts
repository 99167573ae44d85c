import { z } from 'zod'
import { InternalError, notFound } from '../../errors.js'
import { isObjectId } from '../../http/rules.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { NotificationGroup } from './notification-groups.store.js'
import {
  CreateGroupBodySchema,
  DeleteGroupResultSchema,
  GroupIdParamsSchema,
  NotificationGroupSchema,
} from './notification-groups.schemas.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Workflow groups']
// A document read one at a time carries Mongoose's `id` virtual; a lean list does not.
const withId = (group: NotificationGroup) => ({ ...group, id: group._id })

/** Upstream casts the id to an ObjectId before querying; a bad one fails as a 500. */
function checkCastable(id: string) {
  if (!isObjectId(id)) throw new InternalError(`Cast to ObjectId failed for value "${id}"`)
}

export const notificationGroupRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/notification-groups',
    summary: 'List workflow groups',
    tags,
    auth: 'apiKey',
    responses: {
      200: {
        description: 'Every group, in creation order',
        schema: lazySchema(() => z.object({ data: z.array(NotificationGroupSchema) })),
      },
    },
    handler: (c, { env }) => json(c, 200, { data: env.groups.list() }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/notification-groups',
    summary: 'Create a workflow group',
    tags,
    auth: 'apiKey',
    body: CreateGroupBodySchema,
    responses: {
      201: {
        description: 'The new group',
        schema: lazySchema(() => z.object({ data: NotificationGroupSchema })),
      },
    },
    handler(c, { env, body }) {
      const now = env.now()
      // Upstream's quirk: the new group's parent is the first group it finds in the organization.
      const parent = env.groups.first()?._id
      const group = env.groups.add({
        _id: env.newId(),
        name: body.name,
        _environmentId: env._environmentId,
        _organizationId: env._organizationId,
        ...(parent ? { _parentId: parent } : {}),
        createdAt: now,
        updatedAt: now,
        __v: 0,
      })
      return json(c, 201, { data: withId(group) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/notification-groups/:id',
    summary: 'Get a workflow group',
    tags,
    auth: 'apiKey',
    params: GroupIdParamsSchema,
    responses: {
      200: {
        description: 'The group',
        schema: lazySchema(() => z.object({ data: NotificationGroupSchema })),
      },
      404: { description: 'No such group: message "Not Found", no error key' },
    },
    handler(c, { env, params }) {
      checkCastable(params.id)
      const group = env.groups.get(params.id.toLowerCase())
      if (!group) throw notFound()
      return json(c, 200, { data: withId(group) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/notification-groups/:id',
    summary: 'Delete a workflow group (hard delete; workflows keep their group id)',
    tags,
    auth: 'apiKey',
    params: GroupIdParamsSchema,
    responses: {
      200: { description: 'Deleted', schema: DeleteGroupResultSchema },
      404: { description: 'No such group: message "Not Found", no error key' },
    },
    handler(c, { env, params }) {
      checkCastable(params.id)
      if (!env.groups.remove(params.id.toLowerCase())) throw notFound()
      return json(c, 200, { data: { acknowledged: true, status: 'deleted' } })
    },
  }),
]
