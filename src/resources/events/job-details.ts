import type { Environment } from '../../tenancy/environment.js'
import type { Job } from '../notifications/notifications.store.js'

/** Appends one execution detail to a job, as upstream's execution log writes it. */
export function addDetail(
  ctx: { env: Environment; job: Job; at: string },
  detail: string,
  status: 'Success' | 'Pending' | 'Failed' | 'Warning' | 'Queued',
  providerId?: string,
  raw?: Record<string, unknown>
) {
  ctx.job.executionDetails.push({
    _id: ctx.env.newId(),
    detail,
    source: 'Internal',
    status,
    ...(providerId ? { providerId } : {}),
    raw: raw ? JSON.stringify(raw) : null,
    isTest: false,
    isRetry: false,
    createdAt: ctx.at,
    updatedAt: ctx.at,
  })
  ctx.job.updatedAt = ctx.at
}
