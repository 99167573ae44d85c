import { CommandValidationError, httpError, InternalError } from '../../errors.js'
import { max, min } from '../../http/rules.js'
import { isObjectId } from '../../tenancy/ids.js'
import { isNumber } from './checks.js'
import type { CursorPage, CursorRequest } from './cursor.js'
import type { CursorQuery } from './topics.schemas.js'

/** Upstream's `VALID_ID_REGEX`: the characters a new topic key may use, or an email address. */
export const VALID_ID = /^[a-zA-Z0-9_:.-]+$|^\S+@\S+\.\S+$/

export const BOTH_CURSORS = 'Cannot specify both "before" and "after" cursors at the same time.'

/** `CursorBasedPaginatedCommand`'s checks of `limit`, in class-validator's order. */
export function checkLimit(command: string, limit: number) {
  const messages = [max(100), min(1), isNumber]
    .map((check) => check(limit, 'limit'))
    .filter((m): m is string => m !== undefined)
  if (messages.length)
    throw new CommandValidationError(command, [{ property: 'limit', messages, value: limit }])
}

/**
 * The cursor document of a page request, or `null` when the id finds none (upstream then
 * answers an empty page). An id MongoDB cannot cast to an ObjectId is a CastError: a 500.
 */
function findCursor<T>(id: string | undefined, find: (id: string) => T | undefined) {
  if (!id) return undefined
  if (!isObjectId(id)) throw new InternalError(`CastError: Cast to ObjectId failed for "${id}"`)
  return find(id.toLowerCase()) ?? null
}

export const emptyPage = <T>(): CursorPage<T> => ({
  data: [],
  next: null,
  previous: null,
  totalCount: 0,
  totalCountCapped: false,
})

/** The paging part of a topics-style list request, or null for upstream's empty page. */
export function topicsStyleCursor<T>(
  query: CursorQuery,
  limit: number,
  find: (id: string) => T | undefined
): CursorRequest<T> | null {
  const cursor = findCursor(query.before || query.after, find)
  if (cursor === null) return null
  return {
    limit,
    direction: query.orderDirection === 'ASC' ? 'ASC' : 'DESC',
    orderBy: query.orderBy || '_id',
    includeCursor: query.includeCursor === 'true',
    ...(cursor ? (query.before ? { before: cursor } : { after: cursor }) : {}),
  }
}

export const topicNotFoundV2 = (key: string) => httpError(404, `Topic with key ${key} not found`)
