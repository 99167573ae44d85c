import { type Obj } from '../../objects.js'
import type { IdFactory } from '../../tenancy/ids.js'
import type { Notification } from './notifications.store.js'

/** Moves the id generator past the ids of exported notifications, their jobs and details. */
export function skipPastNotificationIds(newId: IdFactory, records: readonly Obj[] = []) {
  for (const record of records) {
    const notification = record as unknown as Notification
    newId.skipPast(notification._id)
    for (const job of notification.jobs ?? []) {
      newId.skipPast(job._id)
      for (const detail of job.executionDetails ?? []) newId.skipPast(detail._id)
    }
  }
}

/**
 * Exported notifications fed back in (a state import, a scenario's `data.notifications`): each
 * environment gets its own copy, moved into it, and the id generator skips past their ids.
 */
export function importNotifications(
  ctx: { _environmentId: string; _organizationId: string; newId: IdFactory },
  records: readonly Obj[]
): Notification[] {
  const owner = { _environmentId: ctx._environmentId, _organizationId: ctx._organizationId }
  return records.map((record) => {
    const notification = { ...structuredClone(record), ...owner } as unknown as Notification
    notification.jobs = (notification.jobs ?? []).map((job) => {
      return { ...job, ...owner, executionDetails: job.executionDetails ?? [] }
    })
    return notification
  })
}
