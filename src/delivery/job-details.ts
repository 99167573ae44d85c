import type { Environment } from '../tenancy/environment.js'
import type { ExecutionDetail, Job } from '../resources/notifications/notifications.store.js'

/**
 * Appends one execution detail to a job, as upstream's execution log writes it. One literal per
 * shape (with a provider or without): a detail is kept as long as its job, six a trigger often.
 */
export function addDetail(
  ctx: { env: Environment; job: Job; at: string },
  detail: string,
  status: 'Success' | 'Pending' | 'Failed' | 'Warning' | 'Queued',
  providerId?: string,
  raw?: Record<string, unknown>
) {
  const { job, at } = ctx
  const _id = ctx.env.newId()
  const text = raw ? JSON.stringify(raw) : null
  const entry: ExecutionDetail = providerId
    ? {
        _id,
        detail,
        source: 'Internal',
        status,
        providerId,
        raw: text,
        isTest: false,
        isRetry: false,
        createdAt: at,
        updatedAt: at,
      }
    : {
        _id,
        detail,
        source: 'Internal',
        status,
        raw: text,
        isTest: false,
        isRetry: false,
        createdAt: at,
        updatedAt: at,
      }
  job.executionDetails.push(entry)
  job.updatedAt = at
}
