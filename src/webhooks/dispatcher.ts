import type { Logger } from '../log.js'
import { createDueQueue } from '../resources/notifications/due-queue.js'
import type { MovableClock } from '../tenancy/clock.js'
import type { DeliveryLog, DeliveryRecord } from './delivery-log.js'
import type { Endpoint } from './endpoints.js'
import { signPayload } from './signer.js'
import { redactKey } from '../http/redact.js'

/** One event on its way to one endpoint. */
export interface Delivery {
  apiKey: string
  endpoint: Endpoint
  eventId: string
  webhookId: string
  type: string
  body: string
  /** The attempt about to be made (1 to 8). */
  attempt: number
}

/**
 * Svix's schedule: the first attempt at once, then, after each failure, the next 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h later: eight attempts in all.
 */
export const RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
]
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
/** Svix's limit: a 2xx within 15 s is a success. */
const ATTEMPT_TIMEOUT_MS = 15_000
/** Attempts in flight at once, all endpoints and keys together. */
export const MAX_CONCURRENT_ATTEMPTS = 16
/** Deliveries one key may have waiting (queued or due for a retry) before new ones are dropped. */
const MAX_QUEUED_PER_KEY = 1000
/** What a waiting delivery holds besides its body. */
const DELIVERY_BYTES = 400
/** setTimeout's longest wait. */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Lane {
  ready: Delivery[]
  busy: boolean
}

/** A key's deliveries: one lane per endpoint (in order), its retries on its clock, and its timer. */
interface KeyQueues {
  lanes: Map<string, Lane>
  retries: ReturnType<typeof createDueQueue<Delivery>>
  clock: MovableClock
  waiting: number
  bytes: number
  /** Whether a drop was logged since the queue last had room. */
  warned?: boolean
  timer?: NodeJS.Timeout
  timerDue?: number
}

export interface DispatcherDeps {
  log: DeliveryLog
  logger: Logger
  /** A key's clock, or undefined when its environment is gone. */
  clockOf(apiKey: string): MovableClock | undefined
  /** Whether the endpoint is still registered: a removed one's deliveries are forgotten. */
  registered(endpoint: Endpoint): boolean
  /** Whether `bytes` more fit in the memory budget. */
  fits(bytes: number): boolean
  /** Told whenever what waits or the log changes size (the memory budget's count). */
  changed(): void
  /** Told of each attempt logged (the control plane's event stream). */
  recorded?(record: DeliveryRecord): void
  maxQueuedPerKey?: number
  timeoutMs?: number
}

const bytesOf = (d: Delivery) => DELIVERY_BYTES + d.body.length

/**
 * Sends deliveries after the answers that caused them: per endpoint in order, one attempt at a
 * time, at most MAX_CONCURRENT_ATTEMPTS in flight, each cut at 15 s; a failure is retried on the
 * key's clock. What waits is bounded per key and counted by the memory budget; past either, a
 * delivery is dropped and the log and the console say why.
 */
export function createDispatcher(deps: DispatcherDeps) {
  const keys = new Map<string, KeyQueues>()
  const blocked = new Set<Lane>()
  const laneKey = new WeakMap<Lane, { apiKey: string; queues: KeyQueues }>()
  const maxQueued = deps.maxQueuedPerKey ?? MAX_QUEUED_PER_KEY
  let inFlight = 0
  let queuedBytes = 0
  /** Aborts every attempt in flight when the mock closes. */
  const closing = new AbortController()

  function queuesOf(apiKey: string): KeyQueues | undefined {
    let queues = keys.get(apiKey)
    if (queues) return queues
    const clock = deps.clockOf(apiKey)
    if (!clock) return undefined
    queues = { lanes: new Map(), retries: createDueQueue<Delivery>(), clock, waiting: 0, bytes: 0 }
    keys.set(apiKey, queues)
    return queues
  }

  function record(d: Delivery, fields: Partial<Parameters<DeliveryLog['add']>[0]>) {
    const clock = keys.get(d.apiKey)?.clock ?? deps.clockOf(d.apiKey)
    const entry = deps.log.add({
      at: new Date().toISOString(),
      clockAt: (clock?.now() ?? new Date()).toISOString(),
      apiKey: d.apiKey,
      endpointId: d.endpoint.id,
      url: d.endpoint.url,
      eventId: d.eventId,
      webhookId: d.webhookId,
      type: d.type,
      attempt: d.attempt,
      status: null,
      durationMs: 0,
      outcome: 'dropped',
      body: d.body,
      ...fields,
    })
    deps.changed()
    deps.recorded?.(entry)
    return entry
  }

  /** Logged once while the key's queue stays full: a dead endpoint must not flood the log. */
  function drop(d: Delivery, reason: string) {
    record(d, { error: reason })
    const queues = keys.get(d.apiKey)
    if (queues?.warned) return
    if (queues) queues.warned = true
    deps.logger.log('warn', 'webhook delivery dropped', {
      reason,
      type: d.type,
      eventId: d.eventId,
      endpoint: d.endpoint.id,
      apiKey: redactKey(d.apiKey),
    })
  }

  function laneOf(queues: KeyQueues, apiKey: string, endpointId: string): Lane {
    let lane = queues.lanes.get(endpointId)
    if (!lane) {
      lane = { ready: [], busy: false }
      queues.lanes.set(endpointId, lane)
      laneKey.set(lane, { apiKey, queues })
    }
    return lane
  }

  /** Queues a first attempt; false (and logged) when the bound or the budget refuses it. */
  function enqueue(d: Delivery): boolean {
    const queues = queuesOf(d.apiKey)
    if (!queues) return false
    if (queues.waiting >= maxQueued) {
      drop(
        d,
        `the webhook queue of this API key is full (${maxQueued} deliveries waiting): an endpoint is slow or down; delete it (DELETE /__admin/webhooks/:id) or reset the key`
      )
      return false
    }
    if (!deps.fits(bytesOf(d))) {
      drop(d, `novu-mock's memory budget (--max-memory-mb) cannot hold another waiting delivery`)
      return false
    }
    hold(queues, d)
    laneOf(queues, d.apiKey, d.endpoint.id).ready.push(d)
    pump(laneOf(queues, d.apiKey, d.endpoint.id))
    return true
  }

  function hold(queues: KeyQueues, d: Delivery) {
    queues.waiting++
    queues.bytes += bytesOf(d)
    queuedBytes += bytesOf(d)
    deps.changed()
  }

  function release(queues: KeyQueues, d: Delivery) {
    queues.waiting--
    queues.warned = false
    queues.bytes -= bytesOf(d)
    queuedBytes -= bytesOf(d)
    deps.changed()
  }

  function pump(lane: Lane) {
    if (lane.busy || !lane.ready.length || closing.signal.aborted) return
    if (inFlight >= MAX_CONCURRENT_ATTEMPTS) {
      blocked.add(lane)
      return
    }
    const owner = laneKey.get(lane)
    if (!owner || keys.get(owner.apiKey) !== owner.queues) return
    const d = lane.ready.shift() as Delivery
    if (!deps.registered(d.endpoint)) {
      release(owner.queues, d)
      return pump(lane)
    }
    lane.busy = true
    inFlight++
    void attempt(d, owner.queues).finally(() => {
      lane.busy = false
      inFlight--
      pump(lane)
      for (const next of blocked) {
        if (inFlight >= MAX_CONCURRENT_ATTEMPTS) break
        blocked.delete(next)
        pump(next)
      }
    })
  }

  async function attempt(d: Delivery, queues: KeyQueues) {
    const started = performance.now()
    const timestamp = Math.floor(Date.now() / 1000)
    let status: number | null = null
    let error: string | undefined
    try {
      const res = await fetch(d.endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([
          AbortSignal.timeout(deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
          closing.signal,
        ]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Svix-Webhooks/1.0 (novu-mock)',
          'webhook-id': d.webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signPayload(d.endpoint.secret, d.webhookId, timestamp, d.body),
        },
        body: d.body,
      })
      status = res.status
      // The answer's body is not kept; reading it lets the connection be reused.
      await res.arrayBuffer().catch(() => undefined)
    } catch (failure) {
      error = describe(failure, deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS)
    }
    // A reset dropped the key's queues while the attempt ran, or the mock closed: nothing more.
    if (keys.get(d.apiKey) !== queues || closing.signal.aborted) return
    const ok = status !== null && status >= 200 && status < 300
    if (!ok && error === undefined) error = `the endpoint answered ${status}`
    d.endpoint.lastAttempt = { at: new Date().toISOString(), status, ok }
    const durationMs = Math.round(performance.now() - started)
    const retry = !ok && d.attempt < MAX_ATTEMPTS
    const due = retry ? queues.clock.now().getTime() + (RETRY_DELAYS_MS[d.attempt - 1] ?? 0) : 0
    record(d, {
      status,
      durationMs,
      outcome: ok ? 'delivered' : retry ? 'retrying' : 'failed',
      ...(error !== undefined && !ok ? { error } : {}),
      ...(retry ? { nextAttemptAt: new Date(due).toISOString() } : {}),
    })
    if (!retry) return release(queues, d)
    // The retry takes the attempt's place among what waits: same body, same room.
    queues.retries.add({ ...d, attempt: d.attempt + 1 }, due)
    arm(d.apiKey, queues, due)
  }

  /** With a clock that runs, retries come due by themselves: a timer wakes them. */
  function arm(apiKey: string, queues: KeyQueues, due: number) {
    if (queues.clock.fixed) return
    if (queues.timer && queues.timerDue !== undefined && queues.timerDue <= due) return
    if (queues.timer) clearTimeout(queues.timer)
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, due - queues.clock.now().getTime()))
    queues.timerDue = due
    queues.timer = setTimeout(() => {
      queues.timer = undefined
      queues.timerDue = undefined
      if (keys.get(apiKey) !== queues) return
      fireDue(apiKey)
      const next = queues.retries.nextDue()
      if (next !== undefined) arm(apiKey, queues, next)
    }, wait)
    queues.timer.unref()
  }

  /** Sends the retries due by the key's clock; how many went. */
  function fireDue(apiKey: string): number {
    const queues = keys.get(apiKey)
    if (!queues) return 0
    const now = queues.clock.now().getTime()
    let fired = 0
    for (let d = queues.retries.takeDue(now); d; d = queues.retries.takeDue(now)) {
      const lane = laneOf(queues, apiKey, d.endpoint.id)
      lane.ready.push(d)
      pump(lane)
      fired++
    }
    return fired
  }

  return {
    enqueue,
    fireDue,
    maxQueued,
    /** Deliveries of the key waiting (queued, in flight or due for a retry). */
    waiting: (apiKey: string) => keys.get(apiKey)?.waiting ?? 0,
    /** Retries of the key due later by its clock. */
    scheduled: (apiKey: string) => keys.get(apiKey)?.retries.size() ?? 0,
    bytes: () => queuedBytes,
    inFlight: () => inFlight,
    /** Ends every attempt in flight and every timer: the mock is closing. */
    close() {
      closing.abort()
      for (const queues of keys.values()) if (queues.timer) clearTimeout(queues.timer)
    },
    /** Forgets a key's deliveries (or every key's); attempts in flight end unrecorded. */
    reset(apiKey?: string) {
      for (const [key, queues] of keys) {
        if (apiKey !== undefined && key !== apiKey) continue
        if (queues.timer) clearTimeout(queues.timer)
        for (const lane of queues.lanes.values()) blocked.delete(lane)
        queuedBytes -= queues.bytes
        keys.delete(key)
      }
      deps.changed()
    },
  }
}

function describe(failure: unknown, timeoutMs: number): string {
  if (failure instanceof Error) {
    if (failure.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
    const cause = (failure as Error & { cause?: { code?: string; message?: string } }).cause
    return cause?.code ?? cause?.message ?? failure.message
  }
  return String(failure)
}
