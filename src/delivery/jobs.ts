import { isChannel } from '../channels.js'
import type { Environment } from '../tenancy/environment.js'
import type { Job, Notification } from '../resources/notifications/notifications.store.js'
import { bridgeWorkflowOf, executeBridge } from './bridge.js'
import { addDetail } from './job-details.js'
import { RenderError } from './languages/handlebars.js'
import { sendMessage } from './send-message.js'
import { stepPreferred } from '../resources/preferences/preferences.resolve.js'
import { isObj, type Obj } from '../objects.js'
import { isKnownError } from '../errors.js'

/**
 * The worker's job chain, run on the environment's clock: each job runs when its parent is
 * done; a delay or a digest parks the chain until the clock passes its time. `at` is the
 * (virtual) time a job runs at: a chain resumed late runs at the time its wait ended.
 */

/** Upstream's toMilliseconds: seconds unless the unit is minutes, hours or days. */
function toMilliseconds(amount: unknown, unit: unknown): number {
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
function valueAt(source: unknown, path: string): unknown {
  let current = source
  for (const part of path.split('.')) {
    if (!isObj(current) && !Array.isArray(current)) return undefined
    current = (current as Obj)[part]
  }
  return current
}

const plus = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString()

/** The wait of a regular delay or digest step, in ms (upstream's ComputeJobWaitDuration). */
export function waitOf(job: Job, metadata?: Obj): number {
  const meta = (metadata ?? job.digest ?? {}) as Obj
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

/**
 * The delayed main digest a new digest job of the same subscriber, workflow and key joins. A
 * dashboard workflow's digest carries its rendered key as `digestValue`, which groups it.
 */
function mainDigest(env: Environment, job: Job): Job | undefined {
  const meta = (job.digest ?? {}) as Obj
  const key = meta.digestKey
  const value = typeof key === 'string' && key ? valueAt(job.payload, key) : undefined
  const sameGroup = (other: Job) => {
    const theirs = (other.digest ?? {}) as Obj
    if (meta.digestValue !== undefined) return theirs.digestValue === meta.digestValue
    return typeof key === 'string' && key
      ? theirs.digestKey === key && valueAt(other.payload, key) === value
      : true
  }
  return env.notifications.firstWaitingDigest(
    job._subscriberId,
    job._templateId,
    (other) => other !== job && sameGroup(other)
  )
}

/* --------------------------------------------------------------------------------------------
 * Dashboard (v2) workflows: a delay or digest step's timing comes from its rendered controls
 */

type Ctx = { env: Environment; job: Job; at: string }

/** The job failed: upstream's worker stops the run there (later jobs stay pending). */
function fail(ctx: Ctx, detail: string, error: string) {
  addDetail(ctx, detail, 'Failed', undefined, { error })
  ctx.job.status = 'failed'
  ctx.job.updatedAt = ctx.at
}

/** The step's outputs from upstream's bridge, or undefined after failing the job. */
function actionOutputs(ctx: Ctx): Obj | undefined {
  const { env, job, at } = ctx
  const workflow = bridgeWorkflowOf(env, job)
  const subscriber = workflow && env.subscribers.byId(job._subscriberId)
  if (!workflow || !subscriber) return {}
  const actor = job.actorId ? env.subscribers.get(job.actorId) : undefined
  try {
    const result = executeBridge(
      { env, job, subscriber, ...(actor ? { actor } : {}), at },
      workflow
    )
    return 'outputs' in result ? result.outputs : {}
  } catch (error) {
    if (!(error instanceof RenderError)) throw error
    fail(ctx, 'Bridge execution failed', error.message)
    return undefined
  }
}

/** A wait that ends at a date JavaScript can hold (upstream's tier limit refuses far less). */
export const canWait = (at: string, ms: number) =>
  Number.isFinite(ms) && !Number.isNaN(new Date(Date.parse(at) + ms).getTime())

const DURATION_UNITS: Record<string, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 7 * 86_400_000,
  months: 30 * 86_400_000,
}

/**
 * When a dashboard workflow's delay ends: at `payload[dynamicKey]` (an ISO date, or an
 * `{amount, unit}` duration) for a dynamic one, after `amount` `unit` for a regular one (the
 * trigger's `overrides.delay` first), at once for a cron one (see the README). Undefined after
 * failing the job.
 */
function bridgeDelayDue(ctx: Ctx, outputs: Obj): string | undefined {
  const { job, at } = ctx
  if (outputs.dynamicKey !== undefined && outputs.dynamicKey !== null) {
    const key = String(outputs.dynamicKey)
    job.step = { ...job.step, metadata: { type: 'dynamic', dynamicKey: key } }
    const value = valueAt({ payload: job.payload }, key)
    if (!value)
      return void fail(
        ctx,
        'Delay misconfiguration',
        `Dynamic delay key '${key}' not found in payload`
      )
    if (
      typeof value === 'string' &&
      /^\d{4}-\d{2}-\d{2}/.test(value) &&
      !Number.isNaN(Date.parse(value))
    ) {
      if (Date.parse(value) <= Date.parse(at))
        return void fail(ctx, 'Delay misconfiguration', 'delay must be in the future')
      return new Date(Date.parse(value)).toISOString()
    }
    if (isObj(value) && 'amount' in value && 'unit' in value) {
      const unit = DURATION_UNITS[String(value.unit)]
      if (typeof value.amount !== 'number' || value.amount < 0 || !unit)
        return void fail(ctx, 'Delay misconfiguration', 'Invalid duration in dynamic delay')
      if (value.amount * unit <= 0)
        return void fail(ctx, 'Delay misconfiguration', 'delay must be in the future')
      if (!canWait(at, value.amount * unit))
        return void fail(ctx, 'Defer duration limit exceeded', 'delay is too long')
      return plus(at, value.amount * unit)
    }
    return void fail(ctx, 'Delay misconfiguration', `Dynamic delay value is not a valid format`)
  }
  if (outputs.cron !== undefined && outputs.cron !== null) {
    job.step = { ...job.step, metadata: { type: 'timed' } }
    return at
  }
  const metadata = { type: 'regular', amount: outputs.amount || 0, unit: outputs.unit }
  job.step = { ...job.step, metadata }
  const wait = waitOf(job, metadata)
  if (!canWait(at, wait))
    return void fail(ctx, 'Defer duration limit exceeded', 'delay is too long')
  return plus(at, wait)
}

/** A dashboard workflow's digest settings, as upstream writes them onto the job. */
function bridgeDigest(job: Job, outputs: Obj): Obj {
  const digestKey =
    ((job.digest as Obj | undefined)?.digestKey as string | undefined) || 'No-Key-Provided'
  const digestValue = outputs.digestKey || 'No-Value-Provided'
  if (outputs.cron !== undefined && outputs.cron !== null)
    return { type: 'timed', digestValue, digestKey, timed: { cronExpression: outputs.cron } }
  const window = isObj(outputs.lookBackWindow) ? outputs.lookBackWindow : undefined
  if (window && window.amount != null && window.unit != null)
    return {
      type: 'backoff',
      amount: outputs.amount,
      digestValue,
      digestKey,
      unit: outputs.unit,
      backoff: true,
      backoffAmount: window.amount,
      backoffUnit: window.unit,
    }
  const none = !outputs.amount && !outputs.unit
  return {
    type: 'regular',
    amount: none ? 0 : outputs.amount,
    digestKey,
    digestValue,
    unit: none ? 'seconds' : outputs.unit,
  }
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
    .ofSubscriberWorkflow(job._subscriberId, job._templateId)
    .some(
      (n) =>
        n._id !== job._notificationId &&
        n.jobs.some(
          (j) =>
            j.type === 'trigger' && j.status === 'completed' && Date.parse(j.updatedAt) >= since
        )
    )
  return !recent
}

/**
 * Runs a notification's jobs from `index` on, until one waits or the chain ends. A job that
 * throws what the mock does not expect fails, and the chain stops there: upstream's worker runs
 * after the API has answered, so its failures never reach the trigger's answer, and a trigger
 * must not answer 500 over the records it has already stored. Known errors (a 403 of the
 * memory budget) still end the request.
 */
export function runChain(env: Environment, notification: Notification, index: number, at: string) {
  const state: { job?: Job } = {}
  try {
    runJobs(env, notification, index, at, state)
  } catch (error) {
    if (isKnownError(error) || !state.job) throw error
    fail({ env, job: state.job, at }, 'Job failed', errorText(error))
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

function runJobs(
  env: Environment,
  notification: Notification,
  index: number,
  at: string,
  state: { job?: Job }
) {
  const jobs = notification.jobs
  for (let i = index; i < jobs.length; i++) {
    const job = jobs[i] as Job
    if (job.status !== 'pending') return
    state.job = job
    const ctx = { env, job, at }
    if (job.type === 'trigger') {
      complete(env, job, at)
      continue
    }
    if (job.type === 'delay') {
      const meta = (job.digest ?? {}) as Obj
      if (bridgeWorkflowOf(env, job)) {
        const outputs = actionOutputs(ctx)
        const due = outputs && bridgeDelayDue(ctx, outputs)
        if (!due) return
        env.notifications.delay(job, due)
      } else if (meta.type === 'scheduled') {
        const due = Date.parse(String(valueAt(job.payload, String(meta.delayPath ?? ''))))
        if (Number.isNaN(due) || due < Date.parse(at)) {
          job.status = 'canceled'
          job.updatedAt = at
          return
        }
        env.notifications.delay(job, new Date(due).toISOString())
      } else {
        const wait = waitOf(job)
        if (!canWait(at, wait))
          return void fail(ctx, 'Defer duration limit exceeded', 'delay is too long')
        env.notifications.delay(job, plus(at, wait))
      }
      addDetail(ctx, 'Step delayed', 'Pending')
      return
    }
    if (job.type === 'digest') {
      if (bridgeWorkflowOf(env, job)) {
        const outputs = actionOutputs(ctx)
        if (!outputs) return
        job.digest = { ...(job.digest ?? {}), ...bridgeDigest(job, outputs) }
      }
      if (!canWait(at, waitOf(job)))
        return fail(ctx, 'Defer duration limit exceeded', 'digest window is too long')
      if (backsOff(env, job, at)) {
        job.status = 'skipped'
        job.updatedAt = at
        continue
      }
      const main = mainDigest(env, job)
      if (main) {
        for (const later of jobs.slice(i)) {
          env.notifications.merge(later, main._id)
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
    if (isChannel(job.type)) {
      const subscriber = env.subscribers.byId(job._subscriberId)
      const workflow = subscriber && env.workflows.get(job._templateId)
      if (subscriber && workflow && !stepPreferred(env, subscriber, workflow, job.type)) {
        // The subscriber turned this channel off: the step ends without a message.
        addDetail(ctx, 'Step filtered by subscriber preferences', 'Success')
        job.status = 'canceled'
        job.updatedAt = at
        continue
      }
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
    const merged = env.notifications.mergedInto(job._id)
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
  const [next, ...rest] = env.notifications.mergedInto(main._id)
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
  for (const other of rest) env.notifications.merge(other, next._id)
}
