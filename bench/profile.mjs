// Profiles the mock under load on one route and prints where the server's CPU time goes:
// `npm run build && node bench/profile.mjs [get|post|put|many-envs] [seconds=10] [--bare]`.
// With --bare, the bare Hono app serving the mock's bytes is profiled instead, for reference.
// The .cpuprofile is kept in .bench/profiles (open it in Chrome DevTools for the call tree).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { load, pinSelf, startServer, call } from './harness.mjs'
import { ROUTES, addInactiveRules, captureRoutes, manyKeyRequests } from './workloads.mjs'
import { summarise } from './cpu-summary.mjs'

const args = process.argv.slice(2).filter((a) => a !== '--bare')
const bare = process.argv.includes('--bare')
const route = args[0] ?? 'get'
const seconds = Number(args[1] ?? 10)
const dir = join(process.cwd(), '.bench', 'profiles')
mkdirSync(dir, { recursive: true })
const started = Date.now()

pinSelf()
const profiling = { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }
let mock = await startServer({ kind: 'mock', options: {} }, bare ? {} : profiling)
await addInactiveRules(mock.url)
let options
if (route === 'many-envs') {
  for (let i = 0; i < 1000; i++)
    await call(mock.url, 'GET', '/v1/topics', { key: `bench-env-${i}` })
  options = { requests: manyKeyRequests(1000) }
} else {
  const spec = ROUTES[route]
  options = spec.options(await spec.prepare?.(mock.url, 10))
}
if (bare) {
  const routes = await captureRoutes(mock.url)
  await mock.close()
  mock = await startServer({ kind: 'bare', routes }, profiling)
}
const result = await load(mock.url, { seconds, ...options })
await mock.close()

const newest = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
console.log(
  `${bare ? 'bare ' : ''}${route}: ${Math.round(result.rps)} req/s, ${result.requests} requests, p50 ${result.p50} ms, p99 ${result.p99} ms`
)
const { totalMs, functions, files, inclusive } = summarise(
  JSON.parse(readFileSync(newest, 'utf8')),
  25
)
console.log(`${newest}\nself time, ${totalMs} ms sampled`)
console.table(functions)
console.table(files)
console.log("total time of the project's functions")
console.table(inclusive)
