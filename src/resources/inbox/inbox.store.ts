import type { Environment } from '../../tenancy/environment.js'
import type { Message } from '../messages/messages.store.js'
import type { Obj } from '../../objects.js'

export type Mark = 'read' | 'unread' | 'seen' | 'unseen'

/**
 * Upstream's field changes for one mark (subscriber facts §4.3): reading also sees, unreading
 * leaves it seen. `onlyChanging`: mark-all's filter, which skips messages already so.
 * Whether the message changed.
 */
export function applyMark(message: Message, mark: Mark, at: string, onlyChanging = false): boolean {
  const target =
    mark === 'read'
      ? message.read
      : mark === 'unread'
        ? !message.read
        : mark === 'seen'
          ? message.seen
          : mark === 'unseen'
            ? !message.seen
            : undefined
  if (target === undefined || (onlyChanging && target)) return false
  if (mark === 'read' || mark === 'unread') {
    message.read = mark === 'read'
    message.seen = true
    message.lastReadDate = at
    message.lastSeenDate = at
  } else {
    message.seen = mark === 'seen'
    message.lastSeenDate = at
  }
  message.updatedAt = at
  return true
}

/** Dotted equality on `payload.*`, nested objects compared member by member. */
function payloadMatches(payload: unknown, filter: Obj): boolean {
  if (payload === null || typeof payload !== 'object') return false
  return Object.entries(filter).every(([key, want]) => {
    const have = (payload as Obj)[key]
    if (want !== null && typeof want === 'object' && !Array.isArray(want))
      return payloadMatches(have, want as Obj)
    return JSON.stringify(have) === JSON.stringify(want)
  })
}

export interface FeedQuery {
  page: number
  limit: number
  seen?: boolean
  read?: boolean
  feedIds?: string[]
  payload?: Obj
}

/**
 * One page of the subscriber's in-app messages, newest first, with upstream's counters: it counts
 * at most `limit + 1` matches from the page on, so `totalCount` never exceeds a page.
 */
export function feedPage(env: Environment, subscriberId: string, query: FeedQuery) {
  const { page, limit } = query
  const all = env.messages.list({ channel: 'in_app', subscriberId })
  const matches = (m: Message) =>
    (query.seen === undefined || m.seen === query.seen) &&
    (query.read === undefined || m.read === query.read) &&
    (!query.feedIds || query.feedIds.includes(String(m._feedId))) &&
    (!query.payload || payloadMatches(m.payload, query.payload))
  const skip = page * limit
  const found: Message[] = []
  let seen = 0
  for (const m of all.slice(0, all.totalCount)) {
    if (!matches(m)) continue
    if (seen++ < skip) continue
    found.push(m)
    if (found.length > limit) break
  }
  const data = found.slice(0, limit)
  return { data, totalCount: Math.min(found.length, limit), hasMore: data.length < found.length }
}
