import type { Rng } from './prng.js'

const HEX = '0123456789abcdef'

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
  const codes = Buffer.alloc(24)
  const newId = () => {
    const time = seconds
    seconds = (seconds + 1) % SECONDS_SPAN
    // One flat string of 24 characters (see randomHex), the time part first.
    for (let i = 0; i < 8; i++) codes[i] = HEX.charCodeAt((time >>> ((7 - i) * 4)) & 15)
    for (let i = 8; i < 24; i++) codes[i] = HEX.charCodeAt(Math.floor(rng() * 16))
    return codes.toString('latin1', 0, 24)
  }
  newId.skipPast = (id: string) => {
    if (!isObjectId(id)) return
    const time = Number.parseInt(id.slice(0, 8), 16)
    if (time >= seconds) seconds = (time + 1) % SECONDS_SPAN
  }
  return newId
}
