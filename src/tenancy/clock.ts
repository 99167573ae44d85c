/** Time as the mock sees it: real by default, or fixed at one instant for byte-exact runs. */
export interface Clock {
  now(): Date
  readonly fixed: boolean
}

export const DEFAULT_EPOCH = '2024-10-01T09:00:00.000Z'

export function createClock(fixedAt?: string): Clock {
  if (fixedAt === undefined) return { now: () => new Date(), fixed: false }
  const instant = new Date(fixedAt).getTime()
  return { now: () => new Date(instant), fixed: true }
}
