import type { Message } from '../resources/messages/messages.store.js'
import type { Obj } from '../objects.js'

/**
 * Upstream's messageWebhookMapper: the message as a webhook shows it, the external
 * subscriberId beside the ids, `workflowId` the trigger identifier. Fields the message does not
 * have stay out of the JSON, as upstream's undefined ones do.
 */
export function messageObject(m: Message): Obj {
  const x = m as Message & Obj
  const deviceTokens = Array.isArray(x.deviceTokens) ? (x.deviceTokens as unknown[]) : []
  return {
    _id: m._id,
    _templateId: m._templateId,
    _environmentId: m._environmentId,
    _organizationId: m._organizationId,
    _notificationId: m._notificationId,
    subscriberId: m.subscriber?.subscriberId,
    actorSubscriber: x._actorId,
    templateIdentifier: m.templateIdentifier,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    archivedAt: x.archivedAt,
    archived: m.archived,
    transactionId: m.transactionId,
    channel: m.channel,
    seen: m.seen,
    read: m.read,
    snoozedUntil: x.snoozedUntil,
    deliveredAt: x.deliveredAt,
    providerId: m.providerId,
    lastSeenDate: m.lastSeenDate,
    firstSeenDate: x.firstSeenDate,
    lastReadDate: m.lastReadDate,
    status: m.status,
    errorId: x.errorId,
    errorText: x.errorText,
    deviceToken: deviceTokens[0],
    workflowId: m.templateIdentifier,
    stepId: x.stepId,
  }
}

/** `message.failed`'s data: the message and why its step failed. */
export const failedMessageData = (m: Message): Obj => ({
  object: messageObject(m),
  error: { message: String((m as Message & Obj).errorText ?? 'The message could not be sent') },
})
