// Profiles the mock under load on one route and prints where the server's CPU time goes:
// `npm run build && node bench/profile.mjs [route|many-envs] [seconds=10] [--bare] [--2024-10]`,
// route being one of bench/routes.mjs's names (get-v1-topics, post-v1-workflows, trigger, …;
// get, put and post name the first three). With --bare, the bare Hono app serving the mock's
// bytes is profiled instead, for reference. BENCH_CONNECTIONS sets the connections (50).
// The .cpuprofile is kept in .bench/profiles (open it in Chrome DevTools for the call tree).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { load, pinSelf, startServer, call } from './harness.mjs'
import { addInactiveRules, manyKeyRequests } from './workloads.mjs'
import { BENCH_ROUTES, captureRoute } from './routes.mjs'
import { summarise } from './cpu-summary.mjs'

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const bare = process.argv.includes('--bare')
const generation = process.argv.includes('--2024-10') ? '2024-10' : '2026-08'
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SHORT = { get: 'get-v1-topics', put: 'put-v1-status', post: 'post-v1-workflows' }
const route = SHORT[args[0]] ?? args[0] ?? 'get-v1-topics'
const seconds = Number(args[1] ?? 10)
const dir = join(process.cwd(), '.bench', 'profiles')
mkdirSync(dir, { recursive: true })
const started = Date.now()

pinSelf()
const profiling = { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }
// BENCH_MOCK_OPTIONS='{"journalSize":0}' profiles the mock with other options.
const mockOptions = {
  maxWorkflows: 0,
  maxMemoryMb: 2048,
  apiGeneration: generation,
  ...JSON.parse(process.env.BENCH_MOCK_OPTIONS ?? '{}'),
}
let mock = await startServer({ kind: 'mock', options: mockOptions }, bare ? {} : profiling)
await addInactiveRules(mock.url)
let options
const spec = BENCH_ROUTES.find((r) => r.name === (route === 'many-envs' ? 'get-v1-topics' : route))
if (!spec) throw new Error(`no route ${route}: ${BENCH_ROUTES.map((r) => r.name).join(', ')}`)
const captured = bare ? [await captureRoute(mock.url, spec, generation)] : []
if (route === 'many-envs') {
  for (let i = 0; i < 1000; i++)
    await call(mock.url, 'GET', '/v1/topics', { key: `bench-env-${i}` })
  options = { requests: manyKeyRequests(1000) }
} else options = spec.options(await spec.prepare?.(mock.url, connections, generation))
if (bare) {
  await mock.close()
  mock = await startServer({ kind: 'bare', routes: captured }, profiling)
}
const result = await load(mock.url, { seconds, connections, ...options })
await mock.close()

const newest = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
console.log(
  `${bare ? 'bare ' : ''}${route} (${generation}, ${connections} connections): ${Math.round(result.rps)} req/s, ${result.requests} requests (${result.non2xx} not 2xx), p50 ${result.p50} ms, p99 ${result.p99} ms`
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
