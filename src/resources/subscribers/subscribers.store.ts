import { cursorPage, SortedIds, type CursorPage, type CursorRequest } from '../topics/cursor.js'
import { containsIgnoringCase, duplicateKey } from '../topics/topics.store.js'
import { duplicateId } from '../../tenancy/unique-ids.js'

/**
 * A subscriber as upstream stores it. Fields a write never set are absent; `null` is a value
 * (the v2 routes and the trigger's upsert store it). Changed in place by its writes, the way a
 * MongoDB document is: the messages that name a subscriber show it as it is now.
 */
export interface Subscriber {
  _id: string
  _organizationId: string
  _environmentId: string
  subscriberId: string
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  phone?: string | null
  avatar?: string | null
  locale?: string | null
  timezone?: string | null
  data?: Record<string, unknown> | null
  channels?: unknown[]
  isOnline?: boolean
  lastOnlineAt?: string | null
  deleted?: boolean
  createdAt: string
  updatedAt: string
  __v?: number
}

/** The fields a subscriber write may set. */
export const SUBSCRIBER_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'avatar',
  'locale',
  'timezone',
  'data',
] as const
type SubscriberField = (typeof SUBSCRIBER_FIELDS)[number]
export type SubscriberPatch = Partial<Pick<Subscriber, SubscriberField>>

/** GET /v2/subscribers: its filters, and the cursor already found. */
export interface SubscriberCursorQuery extends CursorRequest<Subscriber> {
  email?: string
  phone?: string
  subscriberId?: string
  name?: string
}

function subscriberField(subscriber: Subscriber, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(subscriber, name)) return undefined
  return (subscriber as unknown as Record<string, unknown>)[name]
}

/** Upstream's name filter: `firstName + ' ' + lastName`, trimmed, missing parts as ''. */
const fullName = (s: Subscriber) => `${s.firstName ?? ''} ${s.lastName ?? ''}`.trim()

/**
 * One environment's subscribers: by subscriberId, by internal id, in insertion order (the order
 * MongoDB finds them in) and by `_id` for the cursor.
 */
export function createSubscriberStore(initial: readonly Subscriber[]) {
  const byExternal = new Map<string, Subscriber>()
  const byInternal = new Map<string, Subscriber>()
  /** Insertion order: a number per internal id, rising. */
  const order = new Map<string, number>()
  let sequence = 0
  const sortedIds = new SortedIds()
  const view = sortedIds.view((id) => byInternal.get(id) as Subscriber)
  /** Counts the writes: an answer that shows subscribers holds while this stays the same. */
  let version = 0

  function add(subscriber: Subscriber) {
    if (byExternal.has(subscriber.subscriberId))
      throw duplicateKey(
        'subscribers',
        'unique_subscriber_per_environment',
        `subscriberId: ${JSON.stringify(subscriber.subscriberId)}`
      )
    if (byInternal.has(subscriber._id)) throw duplicateId('subscribers', subscriber._id)
    version++
    byExternal.set(subscriber.subscriberId, subscriber)
    byInternal.set(subscriber._id, subscriber)
    order.set(subscriber._id, sequence++)
    sortedIds.insert(subscriber._id)
    return subscriber
  }
  initial.forEach(add)

  return {
    add,
    /** How many writes the store has seen. */
    version: () => version,
    /** A subscriber changed in place (its channels, a soft delete): answers that show it go. */
    touch() {
      version++
    },
    get: (subscriberId: string) => byExternal.get(subscriberId),
    /** Whether a live subscriber has this id (2024-10's soft-deleted ones are stored, not live). */
    has: (subscriberId: string) => {
      const found = byExternal.get(subscriberId)
      return !!found && !found.deleted
    },
    byId: (id: string) => byInternal.get(id),
    size: () => byInternal.size,
    /** Every subscriber, in insertion order. */
    all: (): Subscriber[] => [...byInternal.values()],

    /** The live subscribers with these subscriberIds, in the order MongoDB finds them (insertion). */
    findMany(subscriberIds: readonly unknown[]): Subscriber[] {
      const found = new Set<Subscriber>()
      for (const id of subscriberIds) {
        const subscriber = typeof id === 'string' ? byExternal.get(id) : undefined
        if (subscriber && !subscriber.deleted) found.add(subscriber)
      }
      return [...found].sort((a, b) => (order.get(a._id) ?? 0) - (order.get(b._id) ?? 0))
    },

    /** Sets the fields given (null included) and the update time. */
    update(subscriber: Subscriber, patch: SubscriberPatch, at: string) {
      version++
      Object.assign(subscriber, patch)
      subscriber.updatedAt = at
    },

    remove(subscriber: Subscriber) {
      if (byInternal.get(subscriber._id) !== subscriber) return
      version++
      byExternal.delete(subscriber.subscriberId)
      byInternal.delete(subscriber._id)
      order.delete(subscriber._id)
      sortedIds.remove(subscriber._id)
    },

    /** GET /v2/subscribers: upstream's cursor pagination with its filters. */
    page(query: SubscriberCursorQuery): CursorPage<Subscriber> {
      const { email, phone, subscriberId, name } = query
      const matches =
        email || phone || subscriberId || name
          ? (s: Subscriber) =>
              (!email || containsIgnoringCase(s.email, email)) &&
              (!phone || containsIgnoringCase(s.phone, phone)) &&
              (!subscriberId || s.subscriberId === subscriberId) &&
              (!name || containsIgnoringCase(fullName(s), name))
          : undefined
      return cursorPage(view, matches, subscriberField, query)
    },
  }
}

export type SubscriberStore = ReturnType<typeof createSubscriberStore>
