import type { Environment } from '../tenancy/environment.js'
import type { Workflow } from '../workflow-model/workflows.types.js'
import type { Subscriber } from '../resources/subscribers/subscribers.store.js'
import type { Job, Notification } from '../resources/notifications/notifications.store.js'
import { isObj, type Obj } from '../objects.js'
import { WeakCache } from '../cache.js'
import { jsonHeapBytes } from '../memory/estimate.js'

/**
 * The notification and job documents a trigger keeps, their fields in the order upstream's
 * documents have them, optional ones left out. Each is built by a constructor: V8 then holds
 * every field in the object itself, where an object literal added to field by field keeps them
 * in a separate array, copied each time it grows (a few hundred bytes of garbage a job).
 * Nothing tells them from plain objects but their prototype: JSON, spreads and clones see the
 * same fields.
 */

export interface NotificationFields {
  _id: string
  _templateId: string
  _environmentId: string
  _organizationId: string
  _subscriberId: string
  transactionId: string
  channels: string[]
  to: unknown
  payload: Obj
  expireAt: string | undefined
  tags: string[]
  at: string
  jobs: Job[]
  /** Since 2025: the topic the recipient came through, the workflow's severity and criticality. */
  severity?: { topic?: unknown; severity: string; critical: boolean }
}

class NotificationDocument {
  [field: string]: unknown
  constructor(fields: NotificationFields) {
    this._id = fields._id
    this._templateId = fields._templateId
    this._environmentId = fields._environmentId
    this._organizationId = fields._organizationId
    this._subscriberId = fields._subscriberId
    this.transactionId = fields.transactionId
    this.channels = fields.channels
    this.to = fields.to
    this.payload = fields.payload
    if (fields.expireAt) this.expireAt = fields.expireAt
    this.tags = fields.tags
    this.createdAt = fields.at
    this.updatedAt = fields.at
    this.__v = 0
    this.jobs = fields.jobs
    if (fields.severity) {
      if (fields.severity.topic) this.topics = [fields.severity.topic]
      this.severity = fields.severity.severity
      this.critical = fields.severity.critical
    }
  }
}

export const newNotification = (fields: NotificationFields): Notification =>
  new NotificationDocument(fields) as unknown as Notification

/** What every job of one notification carries, worked out once for all of them. */
export interface JobHead {
  identifier: string
  payload: Obj
  overrides: Obj
  tenant: unknown
  transactionId: string
  _notificationId: string
  _environmentId: string
  _organizationId: string
  _userId: string
  subscriberId: string
  _subscriberId: string
  _templateId: string
  expireAt: string | undefined
  actor: Subscriber | undefined
  at: string
}

class JobDocument {
  [field: string]: unknown
  constructor(
    head: JobHead,
    _id: string,
    step: Obj,
    type: string,
    metadata: unknown,
    providerId: string | undefined,
    parent: string | undefined
  ) {
    this._id = _id
    this.identifier = head.identifier
    this.payload = head.payload
    this.overrides = head.overrides
    if (head.tenant !== undefined) this.tenant = head.tenant
    this.transactionId = head.transactionId
    this._notificationId = head._notificationId
    this._environmentId = head._environmentId
    this._organizationId = head._organizationId
    this._userId = head._userId
    this.subscriberId = head.subscriberId
    this._subscriberId = head._subscriberId
    this.status = 'pending'
    this._templateId = head._templateId
    if (head.expireAt) this.expireAt = head.expireAt
    if (head.actor) {
      this._actorId = head.actor._id
      this.actorId = head.actor.subscriberId
    }
    this.executionDetails = []
    this.createdAt = head.at
    this.updatedAt = head.at
    this.__v = 0
    this.step = step
    if (isObj(metadata)) this.digest = { ...metadata }
    this.type = type
    if (providerId) this.providerId = providerId
    if (parent) this._parentId = parent
  }
}

/** One job of the chain: `step` is the workflow's, `metadata` the step's (a digest's copy). */
export const newJob = (
  head: JobHead,
  _id: string,
  step: Obj,
  type: string,
  metadata: unknown,
  providerId: string | undefined,
  parent: string | undefined
): Job => new JobDocument(head, _id, step, type, metadata, providerId, parent) as unknown as Job

/**
 * The synthetic trigger job's step, the same for every trigger of a workflow in an environment:
 * made once and shared (no writer changes a job's step in place; a delay's replaces it).
 */
const triggerSteps = new WeakCache<Workflow, Obj>('trigger steps by workflow', jsonHeapBytes)
export function triggerStep(env: Environment, workflow: Workflow): Obj {
  const found = triggerSteps.get(workflow) as
    { _templateId: string; template: Record<string, string> } | undefined
  if (
    found &&
    found._templateId === workflow._id &&
    found.template._environmentId === env._environmentId &&
    found.template._organizationId === env._organizationId &&
    found.template._creatorId === env._userId
  )
    return found
  const step = {
    template: {
      _environmentId: env._environmentId,
      _organizationId: env._organizationId,
      _creatorId: env._userId,
      _layoutId: null,
      type: 'trigger',
      content: '',
    },
    _templateId: workflow._id,
  }
  triggerSteps.set(workflow, step)
  return step
}
