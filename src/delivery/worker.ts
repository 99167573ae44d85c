import { isChannel } from '../channels.js'
import type { Environment } from '../tenancy/environment.js'
import type { Workflow, WorkflowStep } from '../workflow-model/workflows.types.js'
import type { Subscriber } from '../resources/subscribers/subscribers.store.js'
import {
  normalizedSubscriberId,
  upsertRecipient,
} from '../resources/subscribers/subscriber-upsert.js'
import type { Job, Notification } from '../resources/notifications/notifications.store.js'
import { jsonHeapBytes } from '../memory/estimate.js'
import type { EventsRules } from '../resources/events/events.generations.js'
import { missingPayloadKeys } from './payload-checks.js'
import { canWait, runChain, runDue, waitOf } from './jobs.js'
import { newJob, newNotification, triggerStep, type JobHead } from './records.js'
import { isObj, type Obj } from '../objects.js'
import { chargeJobs, outsideRenderWork, withRenderWork } from './render-work.js'
import { inTrigger, MESSAGE_BYTES, stepTextBytes, TriggerScope } from './trigger-scope.js'
import { WeakCache } from '../cache.js'

/**
 * What upstream's worker does with a processed trigger, run before the HTTP answer: recipients
 * resolved and upserted, topics fanned out, then per subscriber a notification, its jobs and
 * the messages of the steps that run now. Nothing here shows in the trigger's answer.
 */

export interface TriggerCommand {
  workflow: Workflow
  addressing: 'multicast' | 'broadcast'
  to?: unknown
  payload: Obj
  overrides: Obj
  transactionId: string
  actor?: unknown
  tenant?: unknown
}

interface Recipient {
  /** The recipient as `to` gave it (a subscriberId becomes `{subscriberId}`). */
  define: Obj
  /** The topic it came through, since 2025 recorded on its notification. */
  topic?: { _topicId: string; topicKey: string }
}

/** Upstream's splitByRecipientType: topics apart; a malformed recipient fails the whole run. */
function split(to: unknown): { singles: Map<string, Obj>; topics: Obj[] } | undefined {
  const singles = new Map<string, Obj>()
  const topics: Obj[] = []
  for (const recipient of Array.isArray(to) ? to : [to]) {
    if (recipient === null || recipient === undefined) continue
    if (isObj(recipient) && recipient.type === 'Topic') {
      topics.push(recipient)
      continue
    }
    if (typeof recipient === 'string') {
      singles.set(recipient, { subscriberId: recipient })
      continue
    }
    if (!isObj(recipient) || !recipient.subscriberId) return undefined
    singles.set(String(recipient.subscriberId), recipient)
  }
  return { singles, topics }
}

const actorDefine = (actor: unknown): Obj | undefined =>
  typeof actor === 'string'
    ? actor
      ? { subscriberId: actor }
      : undefined
    : isObj(actor)
      ? actor
      : undefined

/** The recipients of a multicast, in upstream's order: the singles, then the topics' members. */
function multicastRecipients(
  env: Environment,
  rules: EventsRules,
  command: TriggerCommand,
  actorId: string | undefined
): Recipient[] | undefined {
  const parts = split(command.to)
  if (!parts) return undefined
  const out: Recipient[] = [...parts.singles.values()].map((define) => ({ define }))
  if (!parts.topics.length) return out
  // One pass over `to`: each topic once, with the exclusions of every entry naming it.
  const excludedOf = new Map<string, Set<string>>()
  for (const entry of parts.topics) {
    const key = String(entry.topicKey)
    let excluded = excludedOf.get(key)
    if (!excluded) excludedOf.set(key, (excluded = new Set()))
    if (rules.topicExclude && typeof entry.topicKey === 'string' && Array.isArray(entry.exclude))
      for (const id of entry.exclude as unknown[]) excluded.add(String(id))
  }
  const found = [...excludedOf.keys()].map((key) => env.topics.get(key))
  // 2024-10 throws here, after the singles were enqueued: the topics fan out to nobody.
  if (found.some((t) => !t) && rules.unknownTopicAbortsFanOut) return out
  const seen = new Set(parts.singles.keys())
  for (const topic of found) {
    if (!topic) continue
    const excluded = excludedOf.get(topic.key) as Set<string>
    for (const subscription of env.topics.subscriptions.ofTopic(topic._id)) {
      const id = subscription.externalSubscriberId
      if (seen.has(id) || excluded.has(id) || id === actorId) continue
      seen.add(id)
      out.push({
        define: { subscriberId: id },
        topic: { _topicId: topic._id, topicKey: topic.key },
      })
    }
  }
  return out
}

function broadcastRecipients(
  env: Environment,
  rules: EventsRules,
  actorId: string | undefined
): Recipient[] {
  return env.subscribers
    .all()
    .filter((s) => !s.deleted && !(rules.broadcastExcludesActor && s.subscriberId === actorId))
    .map((s) => ({ define: { subscriberId: s.subscriberId } }))
}

/**
 * What one notification and each of its jobs keep, measured with bench/budget.mjs on Node 20
 * (a notification and three jobs: 2.8 kB) and rounded up by a tenth; each message adds its own
 * figure and its step's texts (trigger-scope.ts). The budget refuses a trigger it cannot hold
 * before anything is written; what a message renders beyond its template, and each subscriber
 * the trigger creates, is counted as it is stored.
 */
const NOTIFICATION_BYTES = 1_100
const JOB_BYTES = 650

function estimate(command: TriggerCommand, recipients: number): number {
  // The payload is kept once per trigger and shared by its records.
  return jsonHeapBytes(command.payload) + recipients * stepPlan(command.workflow).perRecipient
}

const DAY_MS = 86_400_000

interface StepPlan {
  /** The active steps, in order. */
  active: WorkflowStep[]
  /** Their channels, each once: every notification of the workflow shares the list. */
  channels: string[]
  hasTrigger: boolean
  /** What each recipient's notification, jobs and messages keep (see `estimate`). */
  perRecipient: number
}

/**
 * What a workflow's steps make of each trigger, worked out once per list of steps (a change to
 * a workflow replaces its list; no writer changes a step's `active` or type in place).
 */
const plans = new WeakCache<readonly WorkflowStep[], StepPlan>(
  'step plans by workflow',
  (plan) => 160 + 8 * (plan.active.length + plan.channels.length)
)
function stepPlan(workflow: Workflow): StepPlan {
  let plan = plans.get(workflow.steps)
  if (plan) return plan
  const active = workflow.steps.filter((s) => s.active === true)
  const channels: string[] = []
  let hasTrigger = false
  for (const step of active) {
    const type = step.template.type
    if (type === 'trigger') hasTrigger = true
    else if (!channels.includes(type)) channels.push(type)
  }
  let perRecipient = NOTIFICATION_BYTES + (active.length + (hasTrigger ? 0 : 1)) * JOB_BYTES
  for (const step of active)
    // A channel step stores a message (and a further one per chat or push channel, counted then).
    if (isChannel(step.template.type)) perRecipient += MESSAGE_BYTES + stepTextBytes(step)
  plan = { active, channels, hasTrigger, perRecipient }
  plans.set(workflow.steps, plan)
  return plan
}

/** The jobs of one recipient's notification: its active steps, and a trigger job unless one is. */
function jobsPerRecipient(workflow: Workflow): number {
  const { active, hasTrigger } = stepPlan(workflow)
  return active.length + (hasTrigger ? 0 : 1)
}

/** The notification and its jobs for one subscriber (upstream's CreateNotificationJobs). */
function createNotification(
  env: Environment,
  command: TriggerCommand,
  subscriber: Subscriber,
  recipient: Recipient,
  actor: Subscriber | undefined,
  at: string
): Notification {
  const rules = env.generation.events
  const { workflow } = command
  const { active, channels, hasTrigger } = stepPlan(workflow)
  const id = env.newId()
  let expireAt: string | undefined
  if (rules.notificationRetentionDays !== undefined) {
    const waits = active
      .filter((s) => s.template.type === 'digest' || s.template.type === 'delay')
      .reduce((sum, s) => sum + safeWait(s, command), 0)
    const days = rules.notificationRetentionDays * DAY_MS
    // Waits past any date (a delay's job then fails) count as none, as a bad one does.
    const kept = canWait(at, waits + days) ? waits + days : days
    expireAt = new Date(Date.parse(at) + kept).toISOString()
  }
  // Room for every job at once: an array pushed to grows room for seventeen.
  const jobs = new Array<Job>(jobsPerRecipient(workflow))
  const notification = newNotification({
    _id: id,
    _templateId: workflow._id,
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    _subscriberId: subscriber._id,
    transactionId: command.transactionId,
    channels,
    to: recipient.define,
    payload: command.payload,
    expireAt,
    tags: workflow.tags ?? [],
    at,
    jobs,
    severity: rules.severityFields
      ? {
          topic: recipient.topic,
          severity: (workflow.severity as string | undefined) ?? 'none',
          critical: workflow.critical === true,
        }
      : undefined,
  })
  const head: JobHead = {
    identifier: workflow.triggers[0]?.identifier ?? '',
    payload: command.payload,
    overrides: command.overrides,
    tenant: command.tenant,
    transactionId: command.transactionId,
    _notificationId: id,
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    _userId: env._userId,
    subscriberId: subscriber.subscriberId,
    _subscriberId: subscriber._id,
    _templateId: workflow._id,
    expireAt,
    actor,
    at,
  }
  let count = 0
  let parent: string | undefined
  if (!hasTrigger) {
    const job = newJob(
      head,
      env.newId(),
      triggerStep(env, workflow),
      'trigger',
      undefined,
      undefined,
      parent
    )
    jobs[count++] = job
    parent = job._id
  }
  for (const step of active) {
    const type = step.template.type
    const providerId = env.integrations.select(type)?.providerId
    const job = newJob(
      head,
      env.newId(),
      step as unknown as Obj,
      type,
      step.metadata,
      providerId,
      parent
    )
    jobs[count++] = job
    parent = job._id
  }
  return notification
}

/**
 * A job's details at their length once its chain has run: an array pushed to grows room for
 * seventeen, and a notification is kept with its jobs and their details for as long as its
 * environment lives. A later step (a delay ended) pushes again, as before.
 */
function trim(notification: Notification) {
  for (const job of notification.jobs)
    if (job.executionDetails.length) job.executionDetails = job.executionDetails.slice()
}

/** A wait for `expireAt`; upstream falls back to a month on a bad one. */
function safeWait(step: WorkflowStep, command: TriggerCommand): number {
  const job = { digest: step.metadata, overrides: command.overrides } as unknown as Job
  const meta = (step.metadata ?? {}) as Obj
  if (meta.type === 'scheduled') {
    const due = Date.parse(String(command.payload[String(meta.delayPath ?? '')]))
    return Number.isNaN(due) ? 0 : Math.max(0, due - Date.now())
  }
  const ms = waitOf(job)
  return Number.isFinite(ms) ? ms : 0
}

/**
 * Runs a processed trigger through the worker's steps. The memory budget is asked before the
 * first write, and again by each message that renders longer than its template; the request's
 * render allowance (render-work.ts) by each render. A trigger refused (or failing) on the way
 * takes back what it wrote, and changes nothing.
 */
export function runTrigger(env: Environment, command: TriggerCommand): void {
  const rules = env.generation.events
  if (rules.ignoresDuplicateTransactions && env.notifications.hasTransaction(command.transactionId))
    return
  // Since 2025 the required-variable check runs here: a failure aborts the run, silently.
  if (!rules.checksPayloadOverHttp && missingPayloadKeys(command.workflow, command.payload)) return
  const actorFields = actorDefine(command.actor)
  const actorId = actorFields ? normalizedSubscriberId(actorFields.subscriberId) : undefined
  const recipients =
    command.addressing === 'broadcast'
      ? broadcastRecipients(env, rules, actorId)
      : multicastRecipients(env, rules, command, actorId)
  const bytes = estimate(command, recipients?.length ?? 0)
  env.memory.admit(bytes, 'the records this trigger creates')
  const scope = new TriggerScope(env, bytes)
  // What the trigger renders is counted as it is stored (trigger-scope.ts): a refusal on the
  // way takes back what was written, and the request answers it. Its jobs are counted first,
  // before anything is written.
  withRenderWork(() => {
    chargeJobs((recipients?.length ?? 0) * jobsPerRecipient(command.workflow))
    inTrigger(scope, () => {
      const at = env.now()
      const actor = actorFields
        ? upsertRecipient(env, actorFields, rules.upsert, at, scope)
        : undefined
      for (const recipient of recipients ?? []) {
        const subscriber = upsertRecipient(env, recipient.define, rules.upsert, at, scope)
        if (!subscriber) continue
        const notification = createNotification(env, command, subscriber, recipient, actor, at)
        env.notifications.add(notification)
        scope.added(notification)
        runChain(env, notification, 0, at)
        trim(notification)
      }
    })
  })
  env.memory.grow(scope.bytes)
  outsideRenderWork(() => runDue(env))
}
