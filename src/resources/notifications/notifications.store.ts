import { duplicateId } from '../../tenancy/unique-ids.js'
import { createDueQueue } from './due-queue.js'

export const JOB_STATUSES = [
  'pending',
  'queued',
  'running',
  'completed',
  'failed',
  'delayed',
  'canceled',
  'merged',
  'skipped',
] as const
type JobStatus = (typeof JOB_STATUSES)[number]

/** One line of a job's execution log, as the activity feed shows it. */
export interface ExecutionDetail {
  _id: string
  detail: string
  source: string
  status: string
  providerId?: string
  raw?: string | null
  isTest: boolean
  isRetry: boolean
  createdAt: string
  updatedAt: string
}

/**
 * A job of the workflow queue: one per active step (plus the synthetic trigger job), chained in
 * step order. `dueAt` is the mock's own: when a delayed job's wait ends on the environment's clock.
 */
export interface Job {
  _id: string
  identifier: string
  payload: Record<string, unknown>
  overrides: Record<string, unknown>
  tenant?: unknown
  step: Record<string, unknown>
  transactionId: string
  _notificationId: string
  _environmentId: string
  _organizationId: string
  _userId: string
  subscriberId: string
  _subscriberId: string
  status: JobStatus
  _templateId: string
  digest?: Record<string, unknown>
  type: string
  providerId?: string
  expireAt?: string
  _actorId?: string
  actorId?: string
  _parentId?: string
  _mergedDigestId?: string
  executionDetails: ExecutionDetail[]
  createdAt: string
  updatedAt: string
  __v: number
  dueAt?: string
}

/** A notification (one trigger for one subscriber) with its jobs, in their order. */
export interface Notification {
  _id: string
  _templateId: string
  _environmentId: string
  _organizationId: string
  _subscriberId: string
  transactionId: string
  channels: string[]
  _digestedNotificationId?: string
  to: unknown
  payload: Record<string, unknown>
  tags: string[]
  createdAt: string
  updatedAt: string
  __v: number
  jobs: Job[]
  [field: string]: unknown
}

/** The length from which a transaction's list of notifications is pushed to, not copied. */
const PUSHED_FROM = 16

export interface FeedQuery {
  channels?: string[]
  templates?: string[]
  /** Internal subscriber ids. */
  subscriberIds?: string[]
  transactionIds?: string[]
}

/**
 * One environment's notifications and their jobs: by id, by transaction, in creation order for
 * the activity feed, and the delayed jobs by the time their wait ends. The digest bookkeeping
 * has indexes of its own, so that no step of a trigger, a clock move or a cancel scans every
 * job: the waiting digests by subscriber and workflow, the jobs merged into each main digest.
 */
export function createNotificationStore(initial: readonly Notification[] = []) {
  const byId = new Map<string, Notification>()
  const byTransaction = new Map<string, Notification[]>()
  /**
   * Jobs by id, made the first time one is asked for (a delay, a digest or a dashboard workflow's
   * step asks), then kept current: a trigger of channel steps alone never reads it, and it took
   * a map entry and a pair a job.
   */
  let jobsById: Map<string, { job: Job; notification: Notification }> | undefined
  const indexJobs = (notification: Notification) => {
    for (const job of notification.jobs) jobsById?.set(job._id, { job, notification })
  }
  const order: Notification[] = []
  /** Where each notification stands in `order`: merged jobs are listed in that order. */
  const position = new WeakMap<Notification, number>()
  /** Delayed jobs, earliest wait end first. */
  const waiting = createDueQueue<Job>()
  /** The delayed digest jobs of each subscriber and workflow, which later triggers merge into. */
  const waitingDigests = new Map<string, Set<Job>>()
  /** The digest jobs merged into each main digest, by its id (some may since have moved on). */
  const mergedDigests = new Map<string, Job[]>()
  /** Notifications by subscriber and workflow, made when a backoff digest first asks. */
  let bySubscriberWorkflow: Map<string, Notification[]> | undefined
  const pairKey = (subscriberId: string, templateId: string) => `${subscriberId}\0${templateId}`
  const indexPair = (notification: Notification) => {
    const key = pairKey(notification._subscriberId, notification._templateId)
    const list = bySubscriberWorkflow?.get(key)
    if (list) list.push(notification)
    else bySubscriberWorkflow?.set(key, [notification])
  }

  function schedule(job: Job) {
    if (job.dueAt === undefined) return
    waiting.add(job, Date.parse(job.dueAt))
    if (job.type !== 'digest') return
    const key = pairKey(job._subscriberId, job._templateId)
    const digests = waitingDigests.get(key)
    if (digests) digests.add(job)
    else waitingDigests.set(key, new Set([job]))
  }

  function unschedule(job: Job) {
    waiting.remove(job)
    if (job.type !== 'digest') return
    const key = pairKey(job._subscriberId, job._templateId)
    const digests = waitingDigests.get(key)
    if (digests?.delete(job) && !digests.size) waitingDigests.delete(key)
  }

  function noteMerged(job: Job) {
    if (job.type !== 'digest' || job.status !== 'merged' || !job._mergedDigestId) return
    const list = mergedDigests.get(job._mergedDigestId)
    if (list) list.push(job)
    else mergedDigests.set(job._mergedDigestId, [job])
  }

  function add(notification: Notification) {
    if (byId.has(notification._id)) throw duplicateId('notifications', notification._id)
    byId.set(notification._id, notification)
    position.set(notification, order.length)
    order.push(notification)
    const same = byTransaction.get(notification.transactionId)
    // A short list is copied to a new array of the exact length (one pushed to grows room for
    // seventeen); a long one, a trigger's fan-out, is pushed to: copying it made a trigger to
    // n recipients take n² steps.
    if (same && same.length >= PUSHED_FROM) same.push(notification)
    else
      byTransaction.set(
        notification.transactionId,
        same ? same.concat([notification]) : [notification]
      )
    if (jobsById) indexJobs(notification)
    if (bySubscriberWorkflow) indexPair(notification)
    for (const job of notification.jobs) {
      if (job.status === 'delayed') schedule(job)
      noteMerged(job)
    }
    return notification
  }
  initial.forEach(add)

  const positionOf = (job: Job) => {
    const notification = byId.get(job._notificationId)
    return (notification && position.get(notification)) ?? 0
  }

  /** Forgets notifications and their jobs (a refused trigger's, taken back), in one pass. */
  function discard(notifications: readonly Notification[]) {
    const doomed = new Set(notifications.filter((n) => byId.get(n._id) === n))
    if (!doomed.size) return
    const jobs = new Set<Job>()
    const transactions = new Set<string>()
    for (const notification of doomed) {
      byId.delete(notification._id)
      transactions.add(notification.transactionId)
      for (const job of notification.jobs) {
        jobs.add(job)
        jobsById?.delete(job._id)
        unschedule(job)
        mergedDigests.delete(job._id)
      }
    }
    let kept = 0
    for (const notification of order)
      if (!doomed.has(notification)) {
        position.set(notification, kept)
        order[kept++] = notification
      }
    order.length = kept
    for (const transactionId of transactions) {
      const rest = (byTransaction.get(transactionId) ?? []).filter((n) => !doomed.has(n))
      if (rest.length) byTransaction.set(transactionId, rest)
      else byTransaction.delete(transactionId)
    }
    for (const [mainId, list] of mergedDigests)
      if (list.some((job) => jobs.has(job)))
        mergedDigests.set(
          mainId,
          list.filter((job) => !jobs.has(job))
        )
    // Rebuilt from `order` the next time a backoff digest asks.
    bySubscriberWorkflow = undefined
  }

  return {
    add,
    discard,
    get: (id: string) => byId.get(id),
    all: (): Notification[] => order.slice(),
    size: () => order.length,
    /** Whether any job carries the transaction id (upstream's uniqueness check). */
    hasTransaction: (transactionId: string) => byTransaction.has(transactionId),
    ofTransaction: (transactionId: string) => byTransaction.get(transactionId) ?? [],
    job(id: string): { job: Job; notification: Notification } | undefined {
      if (!jobsById) {
        jobsById = new Map()
        order.forEach(indexJobs)
      }
      return jobsById.get(id)
    },
    /** The subscriber's notifications of the workflow (internal ids), oldest first. */
    ofSubscriberWorkflow(subscriberId: string, templateId: string): readonly Notification[] {
      if (!bySubscriberWorkflow) {
        bySubscriberWorkflow = new Map()
        order.forEach(indexPair)
      }
      return bySubscriberWorkflow.get(pairKey(subscriberId, templateId)) ?? []
    },

    /** Marks the job delayed until `dueAt`. */
    delay(job: Job, dueAt: string) {
      job.status = 'delayed'
      job.dueAt = dueAt
      schedule(job)
    },
    /** Takes a job off the waiting list (it ran, or was canceled). */
    unschedule,
    /** The earliest delayed job whose wait ended at `now`, taken off the list. */
    nextDue(now: string): Job | undefined {
      const job = waiting.takeDue(Date.parse(now))
      if (job) unschedule(job)
      return job
    },
    pendingCount: () => waiting.size(),
    /**
     * The first waiting digest job of the subscriber and workflow (internal ids), in the
     * waiting list's order, that `matches`.
     */
    firstWaitingDigest(
      subscriberId: string,
      templateId: string,
      matches: (job: Job) => boolean
    ): Job | undefined {
      let first: Job | undefined
      for (const job of waitingDigests.get(pairKey(subscriberId, templateId)) ?? [])
        if (matches(job) && (!first || waiting.before(job, first))) first = job
      return first
    },
    /** Marks the job merged into the main digest job `mainId`. */
    merge(job: Job, mainId: string) {
      job.status = 'merged'
      job._mergedDigestId = mainId
      noteMerged(job)
    },
    /** The digest jobs merged into the main digest job `mainId`, in notification order. */
    mergedInto(mainId: string): Job[] {
      const list = mergedDigests.get(mainId)
      if (!list) return []
      const current = list.filter((j) => j.status === 'merged' && j._mergedDigestId === mainId)
      if (current.length) mergedDigests.set(mainId, current)
      else mergedDigests.delete(mainId)
      return current
        .map((job, index) => ({ job, index, at: positionOf(job) }))
        .sort((a, b) => a.at - b.at || a.index - b.index)
        .map(({ job }) => job)
    },

    /** The feed: newest first (creation order breaks ties), filtered. */
    feed(query: FeedQuery): Notification[] {
      const channels = query.channels && new Set(query.channels)
      const templates = query.templates && new Set(query.templates)
      const subscribers = query.subscriberIds && new Set(query.subscriberIds)
      const source = query.transactionIds
        ? [...new Set(query.transactionIds)].flatMap((id) => byTransaction.get(id) ?? [])
        : order
      const matching = source.filter(
        (n) =>
          (!channels || n.channels.some((c) => channels.has(c))) &&
          (!templates || templates.has(n._templateId)) &&
          (!subscribers || subscribers.has(n._subscriberId))
      )
      const position = new Map(matching.map((n, i) => [n, i]))
      return matching.sort((a, b) =>
        a.createdAt < b.createdAt
          ? 1
          : a.createdAt > b.createdAt
            ? -1
            : (position.get(b) ?? 0) - (position.get(a) ?? 0)
      )
    },
  }
}

export type NotificationStore = ReturnType<typeof createNotificationStore>
