// Before/after: two builds of the mock, measured in alternation on the same routes, so that a
// busy machine slows both alike. `node bench/compare.mjs <old-dist> <new-dist> [routes] [gen]`,
// routes being bench/routes.mjs's names, comma separated (get, put and post name the first
// three); BENCH_ROUNDS, BENCH_SECONDS and BENCH_CONNECTIONS apply. Server CPU per request is
// the steadier number.
import { resolve } from 'node:path'
import { load, pinSelf, startServer, summary } from './harness.mjs'
import { addInactiveRules } from './workloads.mjs'
import { BENCH_ROUTES } from './routes.mjs'

const [before, after] = [process.argv[2], process.argv[3]].map((dir) => resolve(dir))
const SHORT = { get: 'get-v1-topics', put: 'put-v1-status', post: 'post-v1-workflows' }
const names = (process.argv[4] ?? 'get,post,put').split(',').map((name) => SHORT[name] ?? name)
const generation = process.argv[5] ?? '2026-08'
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

pinSelf()
const servers = {}
for (const [label, dist] of [
  ['before', before],
  ['after', after],
]) {
  servers[label] = await startServer({
    kind: 'mock',
    dist,
    options: { maxWorkflows: 0, maxMemoryMb: 2048, apiGeneration: generation },
  })
  await addInactiveRules(servers[label].url)
}

async function once(server, route) {
  const options = route.options(await route.prepare?.(server.url, connections, generation))
  const start = await server.mem()
  const result = await load(server.url, { seconds, connections, ...options })
  const end = await server.mem()
  return { rps: result.rps, cpuMicros: (end.cpuMicros - start.cpuMicros) / result.requests }
}

const rows = []
for (const name of names) {
  const route = BENCH_ROUTES.find((r) => r.name === name)
  for (const server of Object.values(servers)) await once(server, route) // warm-up
  const runs = { before: [], after: [] }
  for (let round = 0; round < rounds; round++)
    for (const label of round % 2 ? ['after', 'before'] : ['before', 'after'])
      runs[label].push(await once(servers[label], route))
  const med = (label, key) => summary(runs[label].map((r) => r[key])).median
  rows.push({
    route: route.label,
    'before req/s': Math.round(med('before', 'rps')),
    'after req/s': Math.round(med('after', 'rps')),
    'before CPU µs/req': +med('before', 'cpuMicros').toFixed(1),
    'after CPU µs/req': +med('after', 'cpuMicros').toFixed(1),
    'CPU saved': `${Math.round(100 * (1 - med('after', 'cpuMicros') / med('before', 'cpuMicros')))}%`,
  })
}
console.table(rows)
for (const server of Object.values(servers)) await server.close()
