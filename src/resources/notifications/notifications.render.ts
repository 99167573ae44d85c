import type { Environment } from '../../tenancy/environment.js'
import type { ExecutionDetail, Job, Notification } from './notifications.store.js'
import { isObj, type Obj } from '../../objects.js'

/** How the activity feed shows one notification, per generation. */

/** The feed leaves out the synthetic trigger job. */
const feedJobs = (n: Notification) => n.jobs.filter((j) => j.type !== 'trigger')

/** 2024-10: the populated document (`toJSON` with virtuals: each level carries `id`). */
export function feedItem2024(env: Environment, n: Notification): Obj {
  const subscriber = env.subscribers.byId(n._subscriberId)
  const workflow = env.workflows.get(n._templateId)
  const { jobs: _jobs, ...doc } = n
  return {
    ...doc,
    subscriber: subscriber
      ? defined({
          _id: subscriber._id,
          firstName: subscriber.firstName,
          lastName: subscriber.lastName,
          email: subscriber.email,
          phone: subscriber.phone,
          subscriberId: subscriber.subscriberId,
          id: subscriber._id,
        })
      : null,
    template: workflow
      ? { _id: workflow._id, name: workflow.name, triggers: workflow.triggers, id: workflow._id }
      : null,
    jobs: feedJobs(n).map(job2024),
    id: n._id,
  }
}

function step2024(step: Obj) {
  return defined({
    _id: step._id,
    active: step.active,
    filters: step.filters ?? [],
    _templateId: step._templateId,
    _parentId: step._parentId ?? null,
    template: step.template,
  })
}

function job2024(job: Job): Obj {
  return defined({
    _id: job._id,
    payload: job.payload,
    overrides: job.overrides,
    tenant: job.tenant,
    step: step2024(job.step),
    status: job.status,
    digest: job.digest,
    type: job.type,
    providerId: job.providerId,
    actorId: job.actorId,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    executionDetails: job.executionDetails.map((d) => ({ ...d, id: d._id })),
    id: job._id,
  })
}

/** Since 2025: upstream's `mapFeedItemToDto`, its fields in its order, absent ones left out. */
export function feedItem2026(env: Environment, n: Notification): Obj {
  const subscriber = env.subscribers.byId(n._subscriberId)
  const workflow = env.workflows.get(n._templateId)
  return defined({
    _digestedNotificationId: n._digestedNotificationId,
    _environmentId: n._environmentId,
    _id: n._id,
    _organizationId: n._organizationId,
    _subscriberId: n._subscriberId,
    _templateId: n._templateId,
    topics: n.topics,
    channels: n.channels,
    createdAt: n.createdAt,
    jobs: feedJobs(n).map(job2026),
    tags: n.tags,
    transactionId: n.transactionId,
    updatedAt: n.updatedAt,
    controls: n.controls,
    payload: n.payload,
    to: n.to,
    subscriber: subscriber
      ? defined({
          _id: subscriber._id,
          subscriberId: subscriber.subscriberId,
          email: subscriber.email ?? undefined,
          firstName: subscriber.firstName ?? undefined,
          lastName: subscriber.lastName ?? undefined,
          phone: subscriber.phone ?? undefined,
        })
      : undefined,
    template: workflow
      ? defined({
          _id: workflow._id,
          name: workflow.name,
          triggers: workflow.triggers,
          origin: workflow.origin,
        })
      : undefined,
    severity: (n.severity as string | undefined) ?? 'none',
    critical: n.critical,
    contextKeys: n.contextKeys,
  })
}

function step2026(step: Obj): Obj {
  const template = isObj(step.template) ? step.template : {}
  return defined({
    _id: step._id ?? '',
    active: step.active === true,
    replyCallback: step.replyCallback,
    controlVariables: step.controlVariables,
    metadata: step.metadata,
    issues: step.issues,
    _templateId: step._templateId ?? '',
    name: step.name,
    _parentId: step._parentId ?? null,
    filters: step.filters ?? [],
    template: defined({
      type: template.type,
      content: template.content,
      contentType: template.contentType,
      cta: template.cta,
      actor: template.actor,
      variables: template.variables,
      _feedId: template._feedId,
      _layoutId: template._layoutId,
      name: template.name,
      subject: template.subject,
      title: template.title,
      preheader: template.preheader,
      senderName: template.senderName,
      _creatorId: template._creatorId,
    }),
  })
}

const detail2026 = (d: ExecutionDetail) =>
  defined({
    _id: d._id,
    detail: d.detail,
    isRetry: d.isRetry,
    isTest: d.isTest,
    providerId: d.providerId,
    source: d.source,
    status: d.status,
    raw: d.raw ?? undefined,
    createdAt: d.createdAt,
  })

/** Upstream's `mapDigest`: regular and backoff digests (and delays) with their events; timed apart. */
function digest2026(digest: Obj | undefined): Obj | undefined {
  if (!isObj(digest)) return undefined
  const events = Array.isArray(digest.events) ? digest.events : []
  if (digest.type === 'regular' || digest.type === 'backoff')
    return defined({
      digestKey: digest.digestKey,
      amount: digest.amount,
      unit: digest.unit,
      events,
      type: digest.type,
      backoff: digest.backoff,
      backoffAmount: digest.backoffAmount,
      backoffUnit: digest.backoffUnit,
      updateMode: digest.updateMode,
    })
  if (digest.type === 'timed') {
    const timed = isObj(digest.timed) ? digest.timed : {}
    return defined({
      digestKey: digest.digestKey,
      amount: digest.amount,
      unit: digest.unit,
      events,
      type: 'timed',
      timed: defined({
        atTime: timed.atTime,
        weekDays: timed.weekDays,
        monthDays: timed.monthDays,
        ordinal: timed.ordinal,
        ordinalValue: timed.ordinalValue,
        monthlyType: timed.monthlyType,
        cronExpression: timed.cronExpression,
        untilDate: timed.untilDate,
      }),
    })
  }
  return undefined
}

function job2026(job: Job): Obj {
  return defined({
    _id: job._id,
    type: job.type,
    digest: digest2026(job.digest),
    executionDetails: job.executionDetails.map(detail2026),
    step: step2026(job.step),
    overrides: job.overrides,
    payload: job.payload,
    providerId: job.providerId,
    status: job.status,
    updatedAt: job.updatedAt,
  })
}

/** Drops the keys whose value is undefined, as JSON would (so key order stays put). */
function defined<T extends Obj>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key]
  return object
}
