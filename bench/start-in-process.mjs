// startMock() in process, as a test set-up calls it: a fresh Node process imports the library
// (dist/index.js), starts the mock on port 0 and waits for the first 200 of GET /v1/topics; the
// same for a bare Hono app on @hono/node-server. Each start runs in a process of its own (a
// second start in one process would find the modules loaded), alternated with the bare app's.
// `node bench/start-in-process.mjs [n=10]` prints medians: import, startMock(), first 200, and
// the CPU time used until then.
import { execFileSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { DIST, summary } from './harness.mjs'

const MOCK = `
const t0 = performance.now(), c0 = process.cpuUsage()
const { startMock } = await import(${JSON.stringify(pathToFileURL(`${DIST}/${process.env.BENCH_INDEX ?? 'index.js'}`).href)})
const imported = performance.now()
const mock = await startMock({ port: 0, logLevel: 'silent' })
const started = performance.now()
const res = await fetch(mock.url + '/v1/topics', { headers: { Authorization: 'ApiKey bench-start' } })
await res.text()
if (res.status !== 200) throw new Error('status ' + res.status)
const done = performance.now(), cpu = process.cpuUsage(c0)
console.log(JSON.stringify({ imported: imported - t0, started: started - t0, topics: done - t0, cpu: (cpu.user + cpu.system) / 1000 }))
await mock.close()
`
const BARE = `
const t0 = performance.now(), c0 = process.cpuUsage()
const [{ serve }, { Hono }] = await Promise.all([import('@hono/node-server'), import('hono')])
const imported = performance.now()
const app = new Hono()
const TOPICS = JSON.stringify({ page: 0, totalCount: 0, pageSize: 10, data: [] })
app.get('/v1/topics', (c) => c.body(TOPICS, 200, { 'content-type': 'application/json' }))
const server = await new Promise((resolve) => { const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s)) })
const started = performance.now()
const res = await fetch('http://127.0.0.1:' + server.address().port + '/v1/topics')
await res.text()
const done = performance.now(), cpu = process.cpuUsage(c0)
console.log(JSON.stringify({ imported: imported - t0, started: started - t0, topics: done - t0, cpu: (cpu.user + cpu.system) / 1000 }))
server.close()
`
const once = (source) =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', source], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    })
  )

export function measureInProcess(starts = 10) {
  once(MOCK)
  const mock = []
  const bare = []
  for (let i = 0; i < starts; i++) {
    mock.push(once(MOCK))
    bare.push(once(BARE))
  }
  const of = (list) =>
    Object.fromEntries(
      ['imported', 'started', 'topics', 'cpu'].map((key) => [
        key,
        summary(list.map((run) => Math.round(run[key]))),
      ])
    )
  return { starts, mock: of(mock), bare: of(bare) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mock, bare } = measureInProcess(Number(process.argv[2] ?? 10))
  for (const key of ['imported', 'started', 'topics', 'cpu'])
    console.log(
      `${key.padEnd(9)} median ${mock[key].median} ms (${mock[key].min}–${mock[key].max}); bare Hono ${bare[key].median} ms; ratio ${(mock[key].median / bare[key].median).toFixed(2)}`
    )
}
