import { randomHex, type Rng } from './prng.js'

/** The time part of an id is 4 bytes: past the last second it wraps, as MongoDB's does. */
const SECONDS_SPAN = 2 ** 32

export interface IdFactory {
  (): string
  /**
   * Moves the time part past the given id's, so no later id can repeat it. Imported or declared
   * records carry ids this generator made before (an export fed back in, say); without this, a
   * generator restarted from the same seed would hand those ids out again.
   */
  skipPast(id: string): void
}

const ID_PATTERN = /^[0-9a-fA-F]{24}$/

export const isObjectId = (value: unknown): value is string =>
  typeof value === 'string' && value.length === 24 && ID_PATTERN.test(value)

/**
 * ObjectId-shaped ids (24 hex): a 4-byte timestamp that starts at the clock's epoch and moves
 * forward one second per id, then 8 random bytes from the environment's seeded generator.
 * Upstream's ids come from MongoDB; clients only see 24-hex strings that sort by creation.
 */
export function createIdFactory(rng: Rng, epochMs: number): IdFactory {
  let seconds = Math.floor(epochMs / 1000) % SECONDS_SPAN
  const newId = () => {
    const time = seconds.toString(16).padStart(8, '0')
    seconds = (seconds + 1) % SECONDS_SPAN
    return time + randomHex(rng, 16)
  }
  newId.skipPast = (id: string) => {
    if (!isObjectId(id)) return
    const time = Number.parseInt(id.slice(0, 8), 16)
    if (time >= seconds) seconds = (time + 1) % SECONDS_SPAN
  }
  return newId
}
