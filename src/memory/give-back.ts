import type { IncomingMessage, Server } from 'node:http'
import { createRequire } from 'node:module'
import { getHeapSpaceStatistics } from 'node:v8'
import type { Logger } from '../log.js'

/**
 * V8 grows its young generation under load (to 32 MB) and gives it back only after a
 * memory-reducing collection or seconds of slow allocation, which an idle process never reaches:
 * it does not collect at all. Node offers that collection in process through the inspector
 * protocol (HeapProfiler.collectGarbage, V8's low-memory notification), without a flag.
 * It has a price: two full collections (40 to 60 ms each on the mock's own heap), and V8 drops
 * the code it optimised, so the next burst of requests runs some 20 to 50% slower while it is
 * optimised again (bench/rss-where.mjs: 300 functions). Hence only when it gives much back: after
 * a reset that dropped what was stored, or after a long pause. bench/reset-memory.mjs measures it.
 */

/** A reset is a user's "forget it": its memory goes back at the first pause this long. */
const AFTER_RESET_MS = 100
const MB = 1024 * 1024
/** Below these, a collection gives back too little to be worth its price. */
const YOUNG_WORTH_BYTES = 8 * MB
const GROWTH_WORTH_BYTES = 16 * MB
const RESETS = /^\/__admin\/(reset|scenario|state)\/?(\?|$)/

function heap() {
  let used = 0
  let young = 0
  for (const space of getHeapSpaceStatistics()) {
    used += space.space_used_size
    if (space.space_name === 'new_space') young = space.space_size
  }
  return { used, young }
}

// Required, not imported: an import() in the bundle fails once it runs from the code cache.
const requireLazily = createRequire(import.meta.url)

async function collect(): Promise<boolean> {
  let inspector: typeof import('node:inspector')
  try {
    inspector = requireLazily('node:inspector') as typeof import('node:inspector')
  } catch {
    // A Node built without the inspector: V8 keeps what it holds, as before.
    return false
  }
  const session = new inspector.Session()
  session.connect()
  try {
    return await new Promise<boolean>((resolve) =>
      session.post('HeapProfiler.collectGarbage', (error) => resolve(!error))
    )
  } finally {
    session.disconnect()
  }
}

/**
 * Once `server` has had no request for `idleMs`, collects memory-reducingly if the young
 * generation or the heap grew since the last such collection; 100 ms after a reset, a scenario
 * load or a state import, if it dropped enough of what `stored` (the memory budget) counts.
 * `idleMs` 0 does neither. Returns the stop.
 */
export function giveBackWhenIdle(
  server: Server,
  idleMs: number,
  logger: Logger,
  stored: () => number
): () => void {
  if (idleMs <= 0) return () => {}
  let requests = 0
  let seen = 0
  /** What was stored when the first reset since the last check came. */
  let storedBeforeReset: number | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let floor = heap().used

  const arm = () => {
    seen = requests
    const quietMs = storedBeforeReset === undefined ? idleMs : Math.min(AFTER_RESET_MS, idleMs)
    timer = setTimeout(check, quietMs)
    // Never what keeps the process alive.
    timer.unref()
  }
  const check = () => {
    timer = undefined
    if (requests !== seen) return arm()
    const before = heap()
    const worth =
      storedBeforeReset === undefined
        ? before.young >= YOUNG_WORTH_BYTES || before.used - floor >= GROWTH_WORTH_BYTES
        : storedBeforeReset - stored() >= GROWTH_WORTH_BYTES
    storedBeforeReset = undefined
    if (!worth) return
    const rss = process.memoryUsage.rss()
    void collect().then((done) => {
      if (!done || stopped) return
      floor = heap().used
      logger.log('debug', 'memory given back to the system after a pause in requests', {
        rssBeforeMb: Math.round(rss / MB),
        rssAfterMb: Math.round(process.memoryUsage.rss() / MB),
      })
    })
  }
  const onRequest = (req: IncomingMessage) => {
    requests++
    if (req.method !== 'GET' && req.url?.startsWith('/__admin/') && RESETS.test(req.url)) {
      storedBeforeReset ??= stored()
      clearTimeout(timer)
      timer = undefined
    }
    if (!timer) arm()
  }
  // First: the app's listener runs a reset before it returns, and what it dropped is read here.
  server.prependListener('request', onRequest)
  return () => {
    stopped = true
    clearTimeout(timer)
    server.off('request', onRequest)
  }
}
