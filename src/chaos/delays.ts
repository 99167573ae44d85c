import { setTimeout as sleep } from 'node:timers/promises'
import type { Rng } from '../tenancy/prng.js'
import { MAX_DELAY_MS, type Delay } from './rules.schemas.js'

/** A standard normal draw (Box-Muller) from two draws of the seeded generator. */
function standardNormal(rng: Rng): number {
  const u = 1 - rng() // (0, 1]: log(0) would be -Infinity
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng())
}

/**
 * One delay in whole milliseconds, within [0, MAX_DELAY_MS]. Only the seeded generator is used,
 * so the same seed and the same calls give the same delays.
 */
export function sampleDelay(delay: Delay, rng: Rng): number {
  const ms = (() => {
    if (typeof delay === 'number') return delay
    switch (delay.distribution) {
      case 'fixed':
        return delay.ms
      case 'uniform':
        return delay.min + rng() * (delay.max - delay.min)
      case 'normal':
        return delay.mean + delay.stddev * standardNormal(rng)
      case 'lognormal':
        return delay.median * Math.exp(delay.sigma * standardNormal(rng))
    }
  })()
  return Math.round(Math.min(Math.max(ms, 0), MAX_DELAY_MS))
}

/**
 * Waits without blocking other requests. Resolves false when `signal` aborts first (the client
 * went away), which also clears the timer, so a long delay never outlives its request.
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, signal ? { signal } : undefined)
    return true
  } catch (error) {
    if ((error as Error).name === 'AbortError') return false
    throw error
  }
}
