import type { Environment } from '../../tenancy/environment.js'
import type { Job, Notification } from '../notifications/notifications.store.js'
import { addDetail } from './job-details.js'
import { sendMessage } from './send-message.js'

/**
 * The worker's job chain, run on the environment's clock: each job runs when its parent is
 * done; a delay or a digest parks the chain until the clock passes its time. `at` is the
 * (virtual) time a job runs at: a chain resumed late runs at the time its wait ended.
 */

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

const CHANNELS = new Set(['in_app', 'email', 'sms', 'chat', 'push'])

/** Upstream's toMilliseconds: seconds unless the unit is minutes, hours or days. */
export function toMilliseconds(amount: unknown, unit: unknown): number {
  let delay = 1000 * Number(amount)
  if (unit === 'days') delay *= 60 * 60 * 24
  if (unit === 'hours') delay *= 60 * 60
  if (unit === 'minutes') delay *= 60
  return delay
}

/** `overrides.delay` replaces the wait of delay and regular digest steps when its amount is a number. */
function delayOverride(overrides: Obj): { amount: number; unit: unknown } | undefined {
  const delay = overrides.delay
  if (!isObj(delay) || typeof delay.amount !== 'number') return undefined
  return { amount: delay.amount, unit: delay.unit }
}

/** lodash's `get` on a dotted path. */
export function valueAt(source: unknown, path: string): unknown {
  let current = source
  for (const part of path.split('.')) {
    if (!isObj(current) && !Array.isArray(current)) return undefined
    current = (current as Obj)[part]
  }
  return current
}

const plus = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString()

/** The wait of a regular delay or digest step, in ms (upstream's ComputeJobWaitDuration). */
export function waitOf(job: Job): number {
  const meta = (job.digest ?? {}) as Obj
  const override = delayOverride(job.overrides)
  const regularDigest = meta.type === 'regular' || meta.type === 'backoff'
  if (regularDigest || (meta.unit && meta.amount)) {
    if (override) return toMilliseconds(override.amount, override.unit)
    return toMilliseconds(meta.amount, meta.unit)
  }
  if (meta.type === 'timed') return toMilliseconds(meta.amount ?? 0, meta.unit)
  return 0
}

function complete(env: Environment, job: Job, at: string) {
  job.status = 'completed'
  job.updatedAt = at
}

/** The events a step after a completed digest renders with (`step.events`). */
function digestEvents(notification: Notification, index: number): Obj[] | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const job = notification.jobs[i]
    if (job?.type === 'digest' && job.status === 'completed') {
      const events = (job.digest as Obj | undefined)?.events
      return Array.isArray(events) ? (events as Obj[]) : undefined
    }
  }
  return undefined
}

/** The delayed main digest a new digest job of the same subscriber, workflow and key joins. */
function mainDigest(env: Environment, job: Job): Job | undefined {
  const key = (job.digest as Obj | undefined)?.digestKey
  const value = typeof key === 'string' && key ? valueAt(job.payload, key) : undefined
  return env.notifications
    .waitingJobs()
    .find(
      (other) =>
        other !== job &&
        other.type === 'digest' &&
        other._subscriberId === job._subscriberId &&
        other._templateId === job._templateId &&
        (typeof key === 'string' && key
          ? (other.digest as Obj | undefined)?.digestKey === key &&
            valueAt(other.payload, key) === value
          : true)
    )
}

/**
 * A backoff digest digests only when the subscriber had another trigger of the workflow within
 * the backoff window; otherwise it is skipped and the next steps run at once.
 */
function backsOff(env: Environment, job: Job, at: string): boolean {
  const meta = (job.digest ?? {}) as Obj
  if (!(meta.type === 'backoff' || meta.backoff === true)) return false
  const since = Date.parse(at) - toMilliseconds(meta.backoffAmount, meta.backoffUnit)
  const recent = env.notifications
    .all()
    .some(
      (n) =>
        n._id !== job._notificationId &&
        n._subscriberId === job._subscriberId &&
        n._templateId === job._templateId &&
        n.jobs.some(
          (j) =>
            j.type === 'trigger' && j.status === 'completed' && Date.parse(j.updatedAt) >= since
        )
    )
  return !recent
}

/** Runs a notification's jobs from `index` on, until one waits or the chain ends. */
export function runChain(env: Environment, notification: Notification, index: number, at: string) {
  const jobs = notification.jobs
  for (let i = index; i < jobs.length; i++) {
    const job = jobs[i] as Job
    if (job.status !== 'pending') return
    const ctx = { env, job, at }
    if (job.type === 'trigger') {
      complete(env, job, at)
      continue
    }
    if (job.type === 'delay') {
      const meta = (job.digest ?? {}) as Obj
      if (meta.type === 'scheduled') {
        const due = Date.parse(String(valueAt(job.payload, String(meta.delayPath ?? ''))))
        if (Number.isNaN(due) || due < Date.parse(at)) {
          job.status = 'canceled'
          job.updatedAt = at
          return
        }
        env.notifications.delay(job, new Date(due).toISOString())
      } else env.notifications.delay(job, plus(at, waitOf(job)))
      addDetail(ctx, 'Step delayed', 'Pending')
      return
    }
    if (job.type === 'digest') {
      if (backsOff(env, job, at)) {
        job.status = 'skipped'
        job.updatedAt = at
        continue
      }
      const main = mainDigest(env, job)
      if (main) {
        for (const later of jobs.slice(i)) {
          later.status = 'merged'
          later._mergedDigestId = main._id
          later.updatedAt = at
        }
        notification._digestedNotificationId = main._notificationId
        addDetail(ctx, 'Digest was merged with other digest', 'Success')
        return
      }
      env.notifications.delay(job, plus(at, waitOf(job)))
      addDetail(ctx, 'Step digested', 'Pending')
      return
    }
    if (CHANNELS.has(job.type)) {
      const subscriber = env.subscribers.byId(job._subscriberId)
      if (subscriber) {
        const actor = job.actorId ? env.subscribers.get(job.actorId) : undefined
        sendMessage({
          env,
          rules: env.generation.events,
          job,
          subscriber,
          ...(actor ? { actor } : {}),
          tags: notification.tags,
          events: digestEvents(notification, i),
          at,
        })
      }
    }
    complete(env, job, at)
  }
}

/** Ends a delayed job's wait: a digest collects its events; the chain then goes on. */
function resume(env: Environment, job: Job) {
  const found = env.notifications.job(job._id)
  if (!found || job.status !== 'delayed') return
  const at = job.dueAt ?? env.now()
  if (job.type === 'digest') {
    const merged = env.notifications
      .all()
      .flatMap((n) => n.jobs)
      .filter((j) => j.type === 'digest' && j.status === 'merged' && j._mergedDigestId === job._id)
    const events = [job.payload, ...merged.map((j) => j.payload)]
    job.digest = { ...(job.digest ?? {}), events }
  }
  delete job.dueAt
  complete(env, job, at)
  const { notification } = found
  runChain(env, notification, notification.jobs.indexOf(job) + 1, at)
}

/** Runs every wait that ended by the environment's clock, earliest first. */
export function runDue(env: Environment): number {
  const now = env.now()
  let ran = 0
  for (let job = env.notifications.nextDue(now); job; job = env.notifications.nextDue(now)) {
    resume(env, job)
    ran++
  }
  return ran
}

/**
 * DELETE /v1/events/trigger/{transactionId}: cancels the transaction's delayed and merged jobs
 * (and, when a delay or digest is among them, its pending ones). A canceled main digest hands
 * its role to the oldest transaction merged into it. False when nothing was waiting.
 */
export function cancelTransaction(env: Environment, transactionId: string): boolean {
  const at = env.now()
  const jobs = env.notifications.ofTransaction(transactionId).flatMap((n) => n.jobs)
  const waiting = jobs.filter((j) => j.status === 'delayed' || j.status === 'merged')
  if (!waiting.length) return false
  const action = waiting.some((j) => j.type === 'delay' || j.type === 'digest')
  const doomed = action ? [...waiting, ...jobs.filter((j) => j.status === 'pending')] : waiting
  for (const job of doomed) {
    const wasMain = job.type === 'digest' && job.status === 'delayed'
    job.status = 'canceled'
    job.updatedAt = at
    env.notifications.unschedule(job)
    if (wasMain) promoteFollower(env, job, at)
  }
  return true
}

/** The oldest job merged into a canceled main digest becomes the main one, with its wait. */
function promoteFollower(env: Environment, main: Job, at: string) {
  const followers = env.notifications
    .all()
    .flatMap((n) => n.jobs)
    .filter((j) => j.type === 'digest' && j.status === 'merged' && j._mergedDigestId === main._id)
  const [next, ...rest] = followers
  if (!next) return
  const found = env.notifications.job(next._id)
  if (!found) return
  const { notification } = found
  delete next._mergedDigestId
  delete notification._digestedNotificationId
  for (const later of notification.jobs.slice(notification.jobs.indexOf(next) + 1)) {
    if (later.status !== 'merged') continue
    later.status = 'pending'
    delete later._mergedDigestId
    later.updatedAt = at
  }
  env.notifications.delay(next, main.dueAt ?? at)
  next.updatedAt = at
  for (const other of rest) other._mergedDigestId = next._id
}
