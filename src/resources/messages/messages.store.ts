import { type Channel } from '../../channels.js'
import { duplicateId } from '../../tenancy/unique-ids.js'

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
 * A new array of the exact length: one pushed to (or spread into) grows to hold seventeen, and a
 * transaction holds one message per step and subscriber, two often, for as long as it is kept.
 */
/**
 * The list with the item after it: a short list copied to a new array of the exact length (one
 * pushed to grows room for seventeen), a long one (a trigger's fan-out) pushed to, since copying
 * it made a transaction of n messages take n² steps.
 */
function appended<T>(list: T[], item: T): T[] {
  if (list.length >= 16) {
    list.push(item)
    return list
  }
  const out = new Array<T>(list.length + 1)
  for (let i = 0; i < list.length; i++) out[i] = list[i] as T
  out[list.length] = item
  return out
}

/** Messages in the order lists read them backwards: by `createdAt`, then by insertion. */
class Ordered {
  readonly items: Message[] = []

  /** The first position whose message was created after `at`. */
  private after(at: string): number {
    const items = this.items
    let lo = 0
    let hi = items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((items[mid] as Message).createdAt > at) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  /** After every message created at or before it: an append while the clock moves forward. */
  add(message: Message) {
    const items = this.items
    const last = items[items.length - 1]
    if (!last || !(last.createdAt > message.createdAt)) items.push(message)
    else items.splice(this.after(message.createdAt), 0, message)
  }

  remove(message: Message) {
    const items = this.items
    // Among the messages of its time, from the newest: the one just added is found first.
    for (let i = this.after(message.createdAt) - 1; i >= 0; i--) {
      if (items[i] === message) {
        items.splice(i, 1)
        return
      }
      if ((items[i] as Message).createdAt !== message.createdAt) break
    }
    // A createdAt that does not compare (absent, say): the slow way.
    const at = items.indexOf(message)
    if (at !== -1) items.splice(at, 1)
  }
}

/** A newest-first view of an ordered index: its size and Array.prototype.slice's semantics. */
export interface MessagePage {
  readonly totalCount: number
  slice(start: number, end: number): Message[]
}

function newestFirst(items: readonly Message[]): MessagePage {
  const n = items.length
  return {
    totalCount: n,
    slice(start, end) {
      const from = start < 0 ? Math.max(n + start, 0) : Math.min(start, n)
      const to = end < 0 ? Math.max(n + end, 0) : Math.min(end, n)
      const out: Message[] = []
      for (let i = from; i < to; i++) out.push(items[n - 1 - i] as Message)
      return out
    },
  }
}

const listed = (messages: Message[]): MessagePage => ({
  totalCount: messages.length,
  slice: (start, end) => messages.slice(start, end),
})

/**
 * Messages by id with a transaction index, and the live ones ordered as lists read them (all of
 * them, by channel, by subscriber), so that a page costs the same whatever the collection's size.
 * Deletion is soft in the 2024-10 generation (upstream used mongoose-delete: a deleted message
 * stays stored with `deleted: true` and every read skips it) and hard since.
 * `subscribers`: the environment's subscriber store, which says who exists.
 */
export function createMessageStore(
  initial: Message[],
  subscribers: { has(subscriberId: string): boolean }
) {
  const byId = new Map<string, Message>()
  /**
   * Messages by transaction, made the first time a transaction's are asked for, then kept
   * current: triggers alone never read it, and it took a map entry and an array a transaction.
   */
  let byTransaction: Map<string, Message[]> | undefined
  function transactions(): Map<string, Message[]> {
    if (byTransaction) return byTransaction
    const made = new Map<string, Message[]>()
    for (const message of byId.values()) {
      const same = made.get(message.transactionId)
      if (same) same.push(message)
      else made.set(message.transactionId, [message])
    }
    // At their length, as `add` keeps them.
    for (const [transactionId, list] of made) made.set(transactionId, list.slice())
    return (byTransaction = made)
  }
  const live = new Ordered()
  const byChannel = new Map<string, Ordered>()
  const bySubscriber = new Map<string, Ordered>()
  /** Counts the writes: an answer built from the store holds while this stays the same. */
  let version = 0
  /** Told of each message added (the control plane's events); one check when none is set. */
  let onAdd: ((message: Message) => void) | undefined

  const indexOf = (map: Map<string, Ordered>, key: string) => {
    let index = map.get(key)
    if (!index) map.set(key, (index = new Ordered()))
    return index
  }

  function index(message: Message) {
    live.add(message)
    indexOf(byChannel, message.channel).add(message)
    const subscriberId = message.subscriber?.subscriberId
    if (subscriberId !== undefined) indexOf(bySubscriber, subscriberId).add(message)
  }

  function unindex(message: Message) {
    live.remove(message)
    byChannel.get(message.channel)?.remove(message)
    const subscriberId = message.subscriber?.subscriberId
    const ofSubscriber = subscriberId === undefined ? undefined : bySubscriber.get(subscriberId)
    ofSubscriber?.remove(message)
    if (ofSubscriber && ofSubscriber.items.length === 0) bySubscriber.delete(subscriberId as string)
  }

  function add(message: Message) {
    if (byId.has(message._id)) throw duplicateId('messages', message._id)
    version++
    byId.set(message._id, message)
    if (byTransaction) {
      const same = byTransaction.get(message.transactionId)
      byTransaction.set(message.transactionId, same ? appended(same, message) : [message])
    }
    if (!message.deleted) index(message)
    if (onAdd) onAdd(message)
  }
  initial.forEach(add)

  const liveOf = (messages: Iterable<Message>) => [...messages].filter((m) => !m.deleted)
  /** Flags the message deleted, or (hard) forgets it. */
  function drop(message: Message, at: string, hard: boolean) {
    version++
    if (!message.deleted) unindex(message)
    if (!hard) {
      message.deleted = true
      message.deletedAt = at
      return
    }
    byId.delete(message._id)
    if (!byTransaction) return
    const same = byTransaction.get(message.transactionId) ?? []
    const rest = same.filter((m) => m !== message)
    if (rest.length) byTransaction.set(message.transactionId, rest)
    else byTransaction.delete(message.transactionId)
  }

  return {
    add,
    /** Sets (or, with undefined, clears) the one listener told of each message added. */
    watch(listener: ((message: Message) => void) | undefined) {
      onAdd = listener
    },
    /** One message by id, deleted or not. */
    find: (id: string): Message | undefined => byId.get(id),
    /** How many writes the store has seen. */
    version: () => version,
    all: (): Message[] => [...byId.values()],
    /** A live message by id. */
    get(id: string): Message | undefined {
      const found = byId.get(id)
      return found && !found.deleted ? found : undefined
    },
    /** Messages changed in place (marked read or seen, an action done): answers that show them go. */
    touch() {
      version++
    },
    liveByTransaction: (transactionId: string) => liveOf(transactions().get(transactionId) ?? []),

    /** Deletes the live messages of a transaction, optionally of one channel only. */
    removeByTransactionId(
      transactionId: string,
      channel: string | undefined,
      at: string,
      hard: boolean
    ) {
      const doomed = liveOf(transactions().get(transactionId) ?? []).filter(
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

    /** Forgets messages just added (a refused trigger's, taken back), newest first, in one pass. */
    discard(messages: readonly Message[]) {
      const doomed = new Set<Message>()
      for (let i = messages.length - 1; i >= 0; i--) {
        const message = messages[i] as Message
        if (byId.get(message._id) !== message) continue
        doomed.add(message)
        version++
        if (!message.deleted) unindex(message)
        byId.delete(message._id)
      }
      if (!byTransaction) return
      for (const transactionId of new Set([...doomed].map((m) => m.transactionId))) {
        const rest = (byTransaction.get(transactionId) ?? []).filter((m) => !doomed.has(m))
        if (rest.length) byTransaction.set(transactionId, rest)
        else byTransaction.delete(transactionId)
      }
    },

    remove(id: string, at: string, hard: boolean) {
      const message = byId.get(id)
      if (!message || message.deleted) return false
      drop(message, at, hard)
      return true
    },

    /**
     * Live messages that match, newest first (upstream sorts on createdAt descending; among
     * equal times, a fixed clock or one trigger's steps, the later one first), as a view to
     * slice a page from.
     */
    list(query: Omit<MessageQuery, 'page' | 'limit'>): MessagePage {
      const { channel, subscriberId, transactionIds } = query
      if (!transactionIds) {
        if (!subscriberId)
          return newestFirst(channel ? (byChannel.get(channel)?.items ?? []) : live.items)
        const ofSubscriber = bySubscriber.get(subscriberId)?.items ?? []
        return newestFirst(
          channel ? ofSubscriber.filter((m) => m.channel === channel) : ofSubscriber
        )
      }
      const ofTransaction = transactions()
      const source = transactionIds.flatMap((id) => ofTransaction.get(id) ?? [])
      const matching = liveOf(source).filter(
        (m) =>
          (!channel || m.channel === channel) &&
          (!subscriberId || m.subscriber.subscriberId === subscriberId)
      )
      return listed(
        matching
          .reverse()
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      )
    },
  }
}

export type MessageStore = ReturnType<typeof createMessageStore>
