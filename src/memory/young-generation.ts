import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, Server } from 'node:http'
import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import type { Logger } from '../log.js'

/**
 * V8 doubles its young generation (two semi-spaces, up to 16 MB each) each time what survived its
 * scavenges since the last doubling exceeds the space, and gives it back only at a
 * memory-reducing collection. A mock keeps what it is sent: its start and the first requests of
 * each route take the space a doubling past a server that keeps nothing, and a read load then
 * touches both semi-spaces on every cycle, some 8 MB of RSS a server of the same load would not
 * hold (docs/benchmarks.md). Held small under a write load, though, a mock promotes the
 * temporaries of the requests in flight with the records they store, and creates and triggers
 * run 15 to 45% slower (fifth session).
 *
 * So in a process that is the mock's alone (the CLI's), V8 grows the space to HOLD_BYTES a
 * semi-space, and past it only while the mock serves a write load: WRITE_LOAD writes (requests
 * other than GET, HEAD and OPTIONS, the control plane's left out) within WINDOW_MS. A test
 * suite's set-up writes a few dozen a second; a load, thousands. V8 reads its growth factor each
 * time it would grow the space, and a factor of 1 keeps it where it is. The check runs after
 * each collection, so a burst can take the space one doubling past HOLD_BYTES before it holds.
 */
const MB = 2 ** 20
const HOLD_BYTES = 4 * MB
const WRITE_LOAD = 200
const WINDOW_MS = 1000
/** V8's own growth factor. */
const V8_GROWTH_FACTOR = 2
/** A user who set the young generation on node's command line or in NODE_OPTIONS is heard. */
const USER_FLAG = /--(?:max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])
/**
 * Told by src/code-cache.ts around the bytecode's serialising: V8 stamps it with a hash of its
 * flags and refuses it under others, so the factor is V8's own meanwhile. By name, since the
 * launcher's module is not the bundle's.
 */
const SERIALISING_CHANNEL = 'novu-mock:code-cache-serialising'

const semiSpaceBytes = () =>
  (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 2

type YoungGenerationState =
  /** Below HOLD_BYTES a semi-space: V8 grows it. */
  | 'growing'
  /** Kept at the size it has. */
  | 'held'
  /** Under a write load: V8 grows it. */
  | 'writes'
  /** Set on node's command line or in NODE_OPTIONS: left alone. */
  | 'user flag'

const described: Record<YoungGenerationState, string> = {
  growing: 'grows as V8 grows it, up to 4 MB a semi-space',
  held: 'held at its size',
  writes: 'grows as V8 grows it, under a write load',
  'user flag': 'left as the command line set it',
}

/**
 * Holds V8's young generation as the comment above says, counting the writes `server` serves.
 * Returns the stop, which gives V8 its own factor back.
 */
export function holdYoungGeneration(
  server: Server,
  logger: Logger,
  commandLine = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
): () => void {
  if (USER_FLAG.test(commandLine)) {
    logger.log('debug', `V8's young generation ${described['user flag']}`)
    return () => {}
  }
  let state: YoungGenerationState = 'growing'
  let factor = V8_GROWTH_FACTOR
  let writes = 0
  let windowStart = performance.now()
  const setFactor = (next: number) => {
    if (next !== factor) setFlagsFromString(`--semi-space-growth-factor=${next}`)
    factor = next
  }
  const enter = (next: YoungGenerationState, semiSpace: number) => {
    if (next === state) return
    state = next
    setFactor(state === 'held' ? 1 : V8_GROWTH_FACTOR)
    logger.log('debug', `V8's young generation ${described[state]}`, {
      semiSpaceMb: Math.round((semiSpace / MB) * 10) / 10,
    })
  }
  const check = () => {
    const now = performance.now()
    const semiSpace = semiSpaceBytes()
    // Collections may be seconds apart: the writes are counted at their pace over the window.
    const elapsed = now - windowStart
    const writeLoad = (writes * WINDOW_MS) / Math.max(elapsed, WINDOW_MS) >= WRITE_LOAD
    if (writeLoad) enter('writes', semiSpace)
    // V8 shrinks the space after seconds of slow allocation and at a memory-reducing collection.
    else if (semiSpace < HOLD_BYTES) enter('growing', semiSpace)
    else if (state === 'growing' || elapsed >= WINDOW_MS) enter('held', semiSpace)
    if (writeLoad || elapsed >= WINDOW_MS) {
      windowStart = now
      writes = 0
    }
  }
  const onRequest = (req: IncomingMessage) => {
    if (!READS.has(req.method ?? 'GET') && !req.url?.startsWith('/__admin')) writes++
  }
  server.on('request', onRequest)
  const observer = new PerformanceObserver(check)
  observer.observe({ entryTypes: ['gc'] })
  const onSerialising = (message: unknown) => {
    const { phase } = message as { phase: 'start' | 'end' }
    setFlagsFromString(
      `--semi-space-growth-factor=${phase === 'start' ? V8_GROWTH_FACTOR : factor}`
    )
  }
  subscribe(SERIALISING_CHANNEL, onSerialising)
  check()
  return () => {
    observer.disconnect()
    server.off('request', onRequest)
    unsubscribe(SERIALISING_CHANNEL, onSerialising)
    setFactor(V8_GROWTH_FACTOR)
  }
}
