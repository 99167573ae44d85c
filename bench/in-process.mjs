// A built mock started in this process, and a route's requests handed to its app.fetch in a
// batch, timed by this process's CPU time: what bench/paired.mjs and bench/caches.mjs measure.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { addInactiveRules } from './workloads.mjs'

/** `startMock()` of the build in `dist`, as the bench runs it: no workflow limit, 20 inactive rules. */
export async function startInProcess(dist, generation, logLevel = 'warn') {
  const { startMock } = await import(pathToFileURL(resolve(dist, 'index.js')).href)
  const mock = await startMock({
    port: 0,
    maxWorkflows: 0,
    maxMemoryMb: 4096,
    apiGeneration: generation,
    logLevel,
  })
  await addInactiveRules(mock.url)
  return mock
}

/**
 * The route's requests as autocannon would send them one connection at a time: a fixed request,
 * or a sequence whose steps may pick their request (setupRequest) and see the answer (onResponse).
 */
export function requestsOf(options) {
  const steps = options.requests ?? [options]
  const context = {}
  let next = 0
  return {
    take() {
      const step = steps[next++ % steps.length]
      return { step, req: step.setupRequest ? step.setupRequest({}, context) : step }
    },
    answered(step, status) {
      step.onResponse?.(status, undefined, context)
    },
  }
}

/** What Node's server hands a route: the raw header pairs (the journal keeps them) and the target. */
export function incomingOf(req) {
  const rawHeaders = Object.entries(req.headers ?? {}).flat()
  return { incoming: { rawHeaders, url: req.path } }
}

/** `count` requests of the route, one after another: wall and CPU µs per request. */
export async function batch(mock, route, prepared, count) {
  const requests = requestsOf(route.options(prepared))
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) {
    const { step, req } = requests.take()
    const res = await mock.app.fetch(
      new Request(mock.url + req.path, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      }),
      incomingOf(req)
    )
    await res.arrayBuffer()
    if (res.status >= 300) throw new Error(`${req.method} ${req.path}: ${res.status}`)
    requests.answered(step, res.status)
  }
  const used = process.cpuUsage(cpu)
  return {
    wall: ((performance.now() - t0) * 1000) / count,
    cpu: (used.user + used.system) / count,
  }
}
