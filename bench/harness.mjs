// The pieces every benchmark shares: pinned server processes, an autocannon run, medians.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The build under test; BENCH_DIST points at another one (an older build, to compare). */
export const DIST = resolve(ROOT, process.env.BENCH_DIST ?? 'dist')

export const SERVER_CORE = '0'
export const LOAD_CORE = '1'

const hasTaskset = spawnSync('taskset', ['-V']).status === 0

/** The command that runs `args` on one core, when taskset is there to pin it. */
export function pinned(core, args) {
  return hasTaskset ? ['taskset', ['-c', core, ...args]] : [args[0], args.slice(1)]
}

/** Moves this process (every thread: -a) to the load core, so autocannon never shares the server's. */
export function pinSelf() {
  if (!hasTaskset) return false
  return spawnSync('taskset', ['-a', '-cp', LOAD_CORE, String(process.pid)]).status === 0
}

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url))

/** Starts bench/server.mjs on the server core; resolves once it listens. */
export function startServer(config, { nodeArgs = [], env = {} } = {}) {
  if (config.kind === 'mock') config = { ...config, dist: config.dist ?? DIST }
  const [command, args] = pinned(SERVER_CORE, [
    process.execPath,
    '--expose-gc',
    ...nodeArgs,
    SERVER,
    JSON.stringify(config),
  ])
  const child = spawn(command, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  })
  let nextId = 1
  const waiting = new Map()
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
    child.on('message', (message) => {
      if (message.type === 'ready') {
        child.removeAllListeners('exit')
        resolve(handle(message.url))
      } else waiting.get(message.id)?.(message)
    })
  })

  function ask(type, extra) {
    const id = nextId++
    return new Promise((resolve) => {
      waiting.set(id, resolve)
      child.send({ ...extra, type, id })
    })
  }

  function handle(url) {
    return {
      url,
      pid: child.pid,
      mem: () => ask('mem'),
      gc: () => ask('gc'),
      resetPeak: () => ask('reset-peak'),
      /** Heap spaces, code statistics and resident memory by mapping (bench/rss-where.mjs). */
      detail: () => ask('detail'),
      snapshot: (path) => ask('snapshot', { path }),
      /** Ends the server and waits for its exit (a --cpu-prof file is written then). */
      close: () =>
        new Promise((resolve) => {
          child.once('exit', resolve)
          child.send({ type: 'close' })
        }),
    }
  }
}

/** Latencies in fractional ms: autocannon's own histogram keeps whole milliseconds only. */
function latencyRecorder() {
  let values = new Float64Array(1 << 16)
  let count = 0
  return {
    add(ms) {
      if (count === values.length) {
        const grown = new Float64Array(values.length * 2)
        grown.set(values)
        values = grown
      }
      values[count++] = ms
    },
    percentile(p) {
      if (count === 0) return NaN
      const sorted = values.slice(0, count).sort()
      return sorted[Math.min(count - 1, Math.floor((p / 100) * count))]
    },
  }
}

/** One autocannon run; the numbers the table needs, with every non-2xx counted as a failure. */
export async function load(
  url,
  { seconds, connections = 10, requests, method, path, headers, body }
) {
  const latencies = latencyRecorder()
  const run = autocannon({
    url: url + (path ?? ''),
    connections,
    duration: seconds,
    method,
    headers,
    body,
    requests,
  })
  run.on('response', (_client, _status, _bytes, ms) => latencies.add(ms))
  const result = await run
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: +latencies.percentile(50).toFixed(3),
    p99: +latencies.percentile(99).toFixed(3),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Median and spread of a series, for the table and the JSON. */
export function summary(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values }
}

export const MB = 1024 * 1024

/** A JSON request over plain HTTP, for set-up steps (never timed). */
export async function call(url, method, path, { key, body, token } = {}) {
  const headers = {}
  if (key) headers.Authorization = `ApiKey ${key}`
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
  const res = await fetch(url + path, init).catch((error) => {
    // A kept-alive socket the server closed while this process was busy with an in-process batch
    // (bench/paired.mjs starves the event loop for seconds): the request never reached it.
    if (error?.cause?.code !== 'ECONNRESET') throw error
    return fetch(url + path, init)
  })
  const bytes = Buffer.from(await res.arrayBuffer())
  return { status: res.status, contentType: res.headers.get('content-type'), bytes }
}
