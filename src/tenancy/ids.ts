import { randomHex, type Rng } from './prng.js'

export type IdFactory = () => string

/**
 * ObjectId-shaped ids (24 hex): a 4-byte timestamp that starts at the clock's epoch and moves
 * forward one second per id, then 8 random bytes from the environment's seeded generator.
 * Upstream's ids come from MongoDB; clients only see 24-hex strings that sort by creation.
 */
export function createIdFactory(rng: Rng, epochMs: number): IdFactory {
  let seconds = Math.floor(epochMs / 1000)
  return () => (seconds++).toString(16).padStart(8, '0').slice(-8) + randomHex(rng, 16)
}
