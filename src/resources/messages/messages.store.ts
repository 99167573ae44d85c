import { duplicateId } from '../../tenancy/unique-ids.js'

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const
export type Channel = (typeof CHANNELS)[number]

/** A delivered message as upstream stores it (only the fields a client can observe). */
export interface Message {
  _id: string
  _templateId: string
  _environmentId: string
  _messageTemplateId: string
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  _jobId: string
  templateIdentifier: string
  transactionId: string
  channel: Channel
  content: unknown
  subject?: string
  title?: string
  cta?: unknown
  _feedId?: string | null
  email?: string
  phone?: string
  providerId?: string
  status: string
  seen: boolean
  read: boolean
  archived: boolean
  deleted: boolean
  deletedAt?: string
  lastSeenDate?: string
  lastReadDate?: string
  payload: Record<string, unknown>
  overrides: Record<string, unknown>
  tags: string[]
  /** Upstream populates the subscriber into every message it lists. */
  subscriber: MessageSubscriber
  createdAt: string
  updatedAt: string
  __v: number
}

/** The message's subscriber: the stored subscriber itself, so a list shows it as it is now. */
export interface MessageSubscriber {
  _id: string
  firstName?: string | null
  lastName?: string | null
  avatar?: string | null
  subscriberId: string
  _organizationId: string
  _environmentId: string
  createdAt: string
  updatedAt: string
}

export interface MessageQuery {
  channel?: string
  subscriberId?: string
  transactionIds?: string[]
  page: number
  limit: number
}

/**
 * Messages by id with a transaction index. Deletion is soft in the 2024-10 generation (upstream
 * used mongoose-delete: a deleted message stays stored with `deleted: true` and every read skips
 * it) and hard since.
 */
/** `subscribers`: the environment's subscriber store, which says who exists. */
export function createMessageStore(
  initial: Message[],
  subscribers: { has(subscriberId: string): boolean }
) {
  const byId = new Map<string, Message>()
  const byTransaction = new Map<string, Message[]>()

  function add(message: Message) {
    if (byId.has(message._id)) throw duplicateId('messages', message._id)
    byId.set(message._id, message)
    const same = byTransaction.get(message.transactionId)
    if (same) same.push(message)
    else byTransaction.set(message.transactionId, [message])
  }
  initial.forEach(add)

  const live = (messages: Iterable<Message>) => [...messages].filter((m) => !m.deleted)
  /** Flags the message deleted, or (hard) forgets it. */
  function drop(message: Message, at: string, hard: boolean) {
    if (!hard) {
      message.deleted = true
      message.deletedAt = at
      return
    }
    byId.delete(message._id)
    const same = byTransaction.get(message.transactionId) ?? []
    const rest = same.filter((m) => m !== message)
    if (rest.length) byTransaction.set(message.transactionId, rest)
    else byTransaction.delete(message.transactionId)
  }

  return {
    add,
    all: (): Message[] => [...byId.values()],
    liveByTransaction: (transactionId: string) => live(byTransaction.get(transactionId) ?? []),

    /** Deletes the live messages of a transaction, optionally of one channel only. */
    removeByTransactionId(
      transactionId: string,
      channel: string | undefined,
      at: string,
      hard: boolean
    ) {
      const doomed = live(byTransaction.get(transactionId) ?? []).filter(
        (m) => !channel || m.channel === channel
      )
      for (const message of doomed) drop(message, at, hard)
      return doomed.length
    },

    hasSubscriber: (subscriberId: string) => subscribers.has(subscriberId),

    /** Forgets every message of a subscriber (by internal id), deleted ones included. */
    removeBySubscriber(subscriberInternalId: string) {
      for (const message of [...byId.values()])
        if (message._subscriberId === subscriberInternalId) drop(message, '', true)
    },

    remove(id: string, at: string, hard: boolean) {
      const message = byId.get(id)
      if (!message || message.deleted) return false
      drop(message, at, hard)
      return true
    },

    /** Live messages that match, newest first (upstream sorts on createdAt descending). */
    list(query: Omit<MessageQuery, 'page' | 'limit'>) {
      const source = query.transactionIds
        ? query.transactionIds.flatMap((id) => byTransaction.get(id) ?? [])
        : byId.values()
      const matching = live(source).filter(
        (m) =>
          (!query.channel || m.channel === query.channel) &&
          (!query.subscriberId || m.subscriber.subscriberId === query.subscriberId)
      )
      // Newest first; among equal times (a fixed clock, one trigger's steps) the later one first.
      return matching
        .reverse()
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    },
  }
}

export type MessageStore = ReturnType<typeof createMessageStore>
