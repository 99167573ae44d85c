import { type Obj } from '../objects.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { SendContext } from './send-message.js'
import { BoundedCache } from '../cache.js'

const DAY_MS = 86_400_000

/**
 * Parts of message documents that are the same in many of them, shared (and frozen) rather than
 * made again for each: a message is kept for the life of its environment, and these were a
 * third of what one took.
 */
export const NO_ACTION: Obj = Object.freeze({
  action: Object.freeze({ buttons: Object.freeze([]) }),
})
const NO_TOKENS = Object.freeze([]) as unknown as unknown[]
/** The list of the last delivery time, shared by the messages sent at that time. */
const lastDelivered = new BoundedCache<string, readonly string[]>('delivered-at lists', {
  maxEntries: 1,
})
const deliveredAt = (at: string) => lastDelivered.memo(at, () => Object.freeze([at]))
/** The last expiries made, by retention and time (in-app and email keep theirs for different days). */
const lastExpiry = new BoundedCache<string, string>('message expiries', { maxEntries: 4 })
const expiryOf = (at: string, days: number): string =>
  lastExpiry.memo(`${days} ${at}`, () => new Date(Date.parse(at) + days * DAY_MS).toISOString())

/** The payload a message keeps: the trigger's, without attachments. */
function messagePayload(payload: Obj): Obj {
  if (!('attachments' in payload)) return payload
  const { attachments: _attachments, ...rest } = payload
  return rest
}

/**
 * The message document, in the field order upstream's schema gives it; `fields` are what its
 * channel step sets. Built by a constructor, as the notification and its jobs are (records.ts):
 * every field in the object itself, none in an array beside it.
 */
class MessageDocument {
  [field: string]: unknown
  constructor(ctx: SendContext, fields: Obj) {
    const { env, rules, job, at } = ctx
    const channel = fields.channel as string
    const template = job.step.template as Obj
    this._id = env.newId()
    this._templateId = job._templateId
    this._environmentId = env._environmentId
    this._messageTemplateId = template._id
    this._notificationId = job._notificationId
    this._organizationId = env._organizationId
    this._subscriberId = ctx.subscriber._id
    this._jobId = job._id
    this.templateIdentifier = job.identifier
    if (rules.severityFields && typeof job.step.stepId === 'string') this.stepId = job.step.stepId
    if (fields.email !== undefined) this.email = fields.email
    if (fields.subject !== undefined) this.subject = fields.subject
    // Mongoose's default for the nested path, on every channel.
    this.cta = fields.cta ?? NO_ACTION
    if (fields._feedId !== undefined) this._feedId = fields._feedId
    this.channel = channel
    if (fields.content !== undefined) this.content = fields.content
    if (fields.avatar !== undefined) this.avatar = fields.avatar
    if (fields.data !== undefined) this.data = fields.data
    if (fields.phone !== undefined) this.phone = fields.phone
    this.providerId = fields.providerId
    this.deviceTokens = fields.deviceTokens ?? NO_TOKENS
    if (fields.title !== undefined) this.title = fields.title
    this.seen = false
    this.read = false
    this.archived = false
    if (rules.severityFields && channel === 'in_app') this.deliveredAt = deliveredAt(at)
    this.status = fields.status ?? 'sent'
    if (fields.errorId !== undefined) this.errorId = fields.errorId
    if (fields.errorText !== undefined) this.errorText = fields.errorText
    this.transactionId = job.transactionId
    this.payload = messagePayload(job.payload)
    if (fields.overrides !== undefined) this.overrides = fields.overrides
    if (fields.actor !== undefined) {
      this.actor = fields.actor
      if (job._actorId) this._actorId = job._actorId
    }
    const retention = rules.messageRetentionDays?.(channel)
    if (retention !== undefined) this.expireAt = expiryOf(at, retention)
    this.tags = ctx.tags
    if (rules.severityFields) this.severity = 'none'
    if (rules.softDeletedMessages) this.deleted = false
    this.subscriber = ctx.subscriber
    this.createdAt = at
    this.updatedAt = at
    this.__v = 0
  }
}

export const newMessage = (ctx: SendContext, fields: Obj): Message =>
  new MessageDocument(ctx, fields) as unknown as Message
