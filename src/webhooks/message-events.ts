import type { Environment } from '../tenancy/environment.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { WebhookEventType } from './event-types.js'
import { messageObject } from './mappers.js'

/** What an Inbox or widget action on a message tells the webhooks (`unseen` has no event). */
const EVENT_OF: Record<string, WebhookEventType | undefined> = {
  read: 'message.read',
  unread: 'message.unread',
  seen: 'message.seen',
  archive: 'message.archived',
  'read-archive': 'message.archived',
  unarchive: 'message.unarchived',
  snooze: 'message.snoozed',
  unsnooze: 'message.unsnoozed',
  delete: 'message.deleted',
}

/** The event of an action (a mark, or the Inbox route's verb), with the message as it is now. */
export function emitMessageAction(env: Environment, action: string, message: Message) {
  const type = EVENT_OF[action]
  if (!type) return
  // Archiving every read notification leaves the unread ones as they were.
  if (action === 'read-archive' && !message.archived) return
  env.webhooks.emit(type, () => ({ object: messageObject(message) }))
}
