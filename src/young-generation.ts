// V8 grows its young generation, two semi-spaces, each time what survives its collections adds
// up to the space's size, up to 16 MB a semi-space, and gives it back only when the process has
// been idle for seconds. A mock stores what it is sent, so its start and its first writes grow it
// to the maximum, where a server that stores nothing stays at half; under a read load both
// semi-spaces are then touched on every cycle: 32 MB of RSS for a live set of 10 kB a collection
// (bench/rss-where.mjs). Held at 4 MB a semi-space, a read costs 1 µs more in collections (3%), a
// create or a trigger over HTTP 0–6 µs (2%), and the process 24 MB less; see docs/benchmarks.md.
//
// Node takes --max-semi-space-size on its command line alone, which neither `npx novu-mock` nor a
// package's bin can give portably; the growth factor, which V8 reads each time it grows the
// space, can be set from inside. Only the CLI does this: a process the mock does not own (a test
// runner calling startMock()) keeps its own settings.
import { subscribe } from 'node:diagnostics_channel'
import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'

/** The semi-space size the CLI holds V8's young generation at, in MB. */
const SEMI_SPACE_MB = 4

/** The young generation's flags: a user who gave one on the command line or in NODE_OPTIONS is heard. */
const USER_FLAG = /--(?:max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/

const MB = 2 ** 20

/** The size of one semi-space now, in MB (Node 20 reports the new space as both of them). */
function semiSpaceMb(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
  return space ? space.space_size / 2 / MB : 0
}

export type YoungGeneration =
  /** The user set the young generation's size: left alone. */
  | { held: false; reason: 'user flag'; semiSpaceMb: number }
  /** At the size or past it: it grows no more from now on. */
  | { held: true; semiSpaceMb: number; limitMb: number; growing: false }
  /** Below it: it grows as V8 grows it until it reaches the size, then no more. */
  | { held: true; semiSpaceMb: number; limitMb: number; growing: true }

/** V8's own growth factor, set back while the code cache is serialised (src/code-cache.ts). */
const V8_GROWTH_FACTOR = 2
/** The channel src/code-cache.ts tells; named here, since the CLI's bundle holds a copy of this module and not of that one. */
const SERIALISING = 'novu-mock:code-cache-serialising'

let stopped = false
function stopGrowing() {
  setFlagsFromString('--semi-space-growth-factor=1')
  if (stopped) return
  stopped = true
  subscribe(SERIALISING, (message) => {
    const { phase } = message as { phase: 'start' | 'end' }
    setFlagsFromString(`--semi-space-growth-factor=${phase === 'start' ? V8_GROWTH_FACTOR : 1}`)
  })
}

/**
 * Holds V8's young generation at `limitMb` a semi-space (the process must be the mock's alone).
 * At that size or past it, it stops growing now; below it, it stops once a collection leaves it
 * there. The check runs after the collection, so a burst that survives more than the space holds
 * before it runs can take it one doubling further.
 */
export function holdYoungGeneration(
  limitMb = SEMI_SPACE_MB,
  commandLine = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
): YoungGeneration {
  const now = semiSpaceMb()
  if (USER_FLAG.test(commandLine)) return { held: false, reason: 'user flag', semiSpaceMb: now }
  if (now >= limitMb) {
    stopGrowing()
    return { held: true, semiSpaceMb: now, limitMb, growing: false }
  }
  const observer = new PerformanceObserver(() => {
    if (semiSpaceMb() < limitMb) return
    stopGrowing()
    observer.disconnect()
  })
  observer.observe({ entryTypes: ['gc'] })
  return { held: true, semiSpaceMb: now, limitMb, growing: true }
}
