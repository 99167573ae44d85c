import type { Message } from '../resources/messages/messages.store.js'
import type { Obj } from '../objects.js'
import type { WebhookEventType } from './event-types.js'

/**
 * What an environment's routes and steps tell of the events upstream sends webhooks for. The
 * event's `data` is built only when an endpoint takes its type: with none, an event costs a
 * lookup.
 */
export interface WebhookSink {
  emit(type: WebhookEventType, data: () => Obj): void
  /** Whether an endpoint takes the type: work done only for an event (a copy before a change) asks first. */
  wants(type: WebhookEventType): boolean
  /** A message a step stored: `message.sent` and `message.delivered`, or `message.failed`. */
  messageAdded(message: Message): void
}

export const NO_WEBHOOKS: WebhookSink = {
  emit: () => undefined,
  wants: () => false,
  messageAdded: () => undefined,
}
