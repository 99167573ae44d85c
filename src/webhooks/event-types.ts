/**
 * Novu's outbound webhook events (upstream's WebhookEventEnum, singular `message.` prefix) and
 * the object each one carries. `email.received` (inbound mail) is out of the mock's scope.
 */
export const WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.seen',
  'message.read',
  'message.unread',
  'message.archived',
  'message.unarchived',
  'message.snoozed',
  'message.unsnoozed',
  'message.deleted',
  'workflow.created',
  'workflow.updated',
  'workflow.deleted',
  'workflow.published',
  'preference.updated',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** The envelope's `object`: the part before the dot. */
export const objectOf = (type: WebhookEventType) => type.slice(0, type.indexOf('.'))
