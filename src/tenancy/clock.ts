/** Time as the mock sees it: real by default, or fixed at one instant for byte-exact runs. */
export interface Clock {
  now(): Date
  readonly fixed: boolean
}

export const DEFAULT_EPOCH = '2024-10-01T09:00:00.000Z'

/** A clock that can be moved forward (`POST /__admin/clock`): time travel for delays and digests. */
export interface MovableClock extends Clock {
  advance(ms: number): void
  /** Back to where the scenario set it. */
  rewind(): void
}

/** Whether a clock can be moved (the scenario's clocks can). */
export const isMovable = (clock: Clock): clock is MovableClock =>
  typeof (clock as Partial<MovableClock>).advance === 'function'

export function createClock(fixedAt?: string): MovableClock {
  let offset = 0
  const advance = (ms: number) => {
    offset += ms
  }
  const rewind = () => {
    offset = 0
  }
  if (fixedAt === undefined)
    return { now: () => new Date(Date.now() + offset), fixed: false, advance, rewind }
  const instant = new Date(fixedAt).getTime()
  return { now: () => new Date(instant + offset), fixed: true, advance, rewind }
}

/** One environment's clock: the base clock's time plus how far this environment alone was moved. */
export function offsetClock(base: Clock): MovableClock {
  let offset = 0
  return {
    now: () => (offset ? new Date(base.now().getTime() + offset) : base.now()),
    get fixed() {
      return base.fixed
    },
    advance(ms: number) {
      offset += ms
    },
    rewind() {
      offset = 0
    },
  }
}
