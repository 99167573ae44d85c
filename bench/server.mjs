// One server under load, in a process of its own so that its memory and its core are its own.
// `node bench/server.mjs '<json>'` with { kind: 'mock', dist, options } or { kind: 'bare', routes };
// it answers the parent over IPC: ready (with the URL), mem (memory and CPU time), reset-peak, gc.
import { readFileSync, writeFileSync } from 'node:fs'
import { getHeapCodeStatistics, getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8'
import { pathToFileURL } from 'node:url'

const config = JSON.parse(process.argv[2] ?? '{}')

// The kernel's high-water mark of resident memory: no sampling timer competes with the requests.
function peakRss() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return match ? Number(match[1]) * 1024 : undefined
}

/** Writing 5 to clear_refs starts VmHWM over from the current RSS (Linux 4.0+). */
function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
  } catch {
    // Not Linux, or not allowed: the peak then covers the whole run.
  }
}

/** The ceiling for our stack: Hono on @hono/node-server sending stored bytes, nothing else. */
async function startBare(routes) {
  // Imported here: the mock's process must not hold a second Hono it never runs (0.6 MB of heap).
  const { Hono } = await import('hono')
  const { serve } = await import('@hono/node-server')
  const app = new Hono()
  // Answers that share a path (a first page and a cursor page) are told apart by their query.
  const byPath = new Map()
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    const answers = byPath.get(key) ?? []
    answers.push({
      query: route.query ?? '',
      body: Buffer.from(route.body, 'base64'),
      status: route.status,
      headers: { 'content-type': route.contentType },
    })
    byPath.set(key, answers)
  }
  for (const [key, answers] of byPath) {
    const [method, path] = key.split(' ')
    const pick =
      answers.length === 1
        ? () => answers[0]
        : (url) => {
            const query = url.includes('?') ? url.slice(url.indexOf('?')) : ''
            return answers.find((a) => a.query === query) ?? answers[0]
          }
    app.on(method, path, async (c) => {
      // Any server must read and parse what it is sent; the mock does, so the ceiling does too.
      if (method !== 'GET') JSON.parse(await c.req.text())
      const answer = pick(c.req.url)
      return c.body(answer.body, answer.status, answer.headers)
    })
  }
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() })
    )
  })
}

/**
 * The mock as the CLI runs it, in a process of its own: it gives memory back after 30 s without
 * a request and after a reset that dropped 16 MB (src/cli-options.ts, CLI_IDLE_GC_MS), which
 * startMock() leaves off.
 */
const CLI_IDLE_GC_MS = 30_000

async function startMockServer(dist, options) {
  const { startMock, MockOptionsSchema } = await import(pathToFileURL(`${dist}/index.js`).href)
  // A build from before the option (BENCH_DIST) refuses it.
  const asCli = 'idleGcMs' in MockOptionsSchema.shape ? { idleGcMs: CLI_IDLE_GC_MS } : {}
  const mock = await startMock({ port: 0, ...asCli, ...options })
  return { url: mock.url, close: () => mock.close() }
}

const server =
  config.kind === 'bare'
    ? await startBare(config.routes)
    : await startMockServer(config.dist, config.options)

process.on('message', async (message) => {
  if (message.type === 'gc') {
    // Twice: the first pass leaves finalised objects for the second.
    globalThis.gc?.()
    globalThis.gc?.()
  }
  if (message.type === 'reset-peak') resetPeak()
  if (message.type === 'detail') {
    process.send({ id: message.id, ...detail() })
    return
  }
  if (message.type === 'snapshot') {
    process.send({ id: message.id, path: writeHeapSnapshot(message.path) })
    return
  }
  if (message.type === 'close') {
    await server.close()
    process.exit(0)
  }
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage()
  const { user, system } = process.cpuUsage()
  // CPU time, unlike throughput, hardly moves when other processes share the machine.
  const cpuMicros = user + system
  // Where the heap's committed memory is: the young generation grows under load.
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 1024 / 1024)])
  )
  process.send({
    id: message.id,
    rss,
    heapUsed,
    heapTotal,
    external,
    spaces,
    peakRss: peakRss(),
    cpuMicros,
  })
})
/** Resident memory by kind of mapping (/proc/self/smaps), in kB: where RSS is beyond the heap. */
function residentByMapping() {
  const out = {}
  let name = ''
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      const path = head[2]
      name = path ? path.replace(/.*\//, '') : head[1].includes('x') ? 'anon exec' : 'anon'
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) out[name] = (out[name] ?? 0) + Number(rss[1])
  }
  // The last match would keep the whole text alive (RegExp.lastMatch): measured, not measuring.
  ;/^/.exec('')
  return out
}

function detail() {
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [
      s.space_name,
      { size: s.space_size, used: s.space_used_size, physical: s.physical_space_size },
    ])
  )
  return {
    memory: process.memoryUsage(),
    spaces,
    code: getHeapCodeStatistics(),
    smaps: residentByMapping(),
  }
}

// The bench that started us has gone (crashed, or ^C): go too, rather than linger on the core.
process.on('disconnect', () => process.exit(0))
process.send({ type: 'ready', url: server.url })
