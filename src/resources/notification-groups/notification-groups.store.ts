import { duplicateId } from '../../tenancy/unique-ids.js'

export interface NotificationGroup {
  _id: string
  name: string
  _environmentId: string
  _organizationId: string
  _parentId?: string
  createdAt: string
  updatedAt: string
  __v: number
}

/** Workflow groups by id, in creation order. Deletes are hard, as upstream's schema has no soft delete. */
export function createNotificationGroupStore(initial: NotificationGroup[]) {
  const byId = new Map(initial.map((group) => [group._id, group]))
  return {
    list: (): NotificationGroup[] => [...byId.values()],
    get: (id: string) => byId.get(id),
    first: (): NotificationGroup | undefined => byId.values().next().value,
    add(group: NotificationGroup) {
      if (byId.has(group._id)) throw duplicateId('notificationgroups', group._id)
      byId.set(group._id, group)
      return group
    },
    remove: (id: string) => byId.delete(id),
    size: () => byId.size,
  }
}

export type NotificationGroupStore = ReturnType<typeof createNotificationGroupStore>
