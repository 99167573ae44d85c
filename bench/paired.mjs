// Before/after in one process, without sockets: two builds' startMock() side by side, each route's
// requests handed to app.fetch in short batches that alternate between the builds, so that a
// neighbour's load lands on both alike; the median batch says what a request costs each build.
// The HTTP stack is left out (a bare Hono app handed the same requests in the same loop measures
// what the loop itself costs, undici's Request and Response mostly), so "own µs" is the mock's own
// work; over HTTP the same change weighs less. `npm run bench` on a shared 2-core machine swings
// by ±20% from run to run, too much to see 5%.
// `node bench/paired.mjs <old-dist> <new-dist> [routes] [generation]`; routes are
// bench/routes.mjs's names, comma separated (default: all of the generation's);
// PAIRED_BATCHES (default 30) and PAIRED_REQUESTS (a batch, default 300); PAIRED_LOG_LEVEL=info
// logs as `npm run bench`'s mock does (a create with a taken name logs a line: send stderr to a
// file or /dev/null), the default `warn` leaves the log out.
import { resolve } from 'node:path'
import { Hono } from 'hono'
import { summary } from './harness.mjs'
import { batch, incomingOf, requestsOf, startInProcess } from './in-process.mjs'
import { routesFor } from './routes.mjs'

const [before, after] = [process.argv[2], process.argv[3]].map((dir) => resolve(dir))
const generation = process.argv[5] ?? '2026-08'
const only = process.argv[4] ? process.argv[4].split(',') : undefined
const routes = routesFor(generation).filter((route) => !only || only.includes(route.name))
const BATCHES = Number(process.env.PAIRED_BATCHES ?? 30)
const REQUESTS = Number(process.env.PAIRED_REQUESTS ?? 300)
const WARM_UP = Math.max(REQUESTS, 3000)

/** A bare Hono app answering every request with `bytes`, reading the body as the mock does. */
function bareApp(bytes) {
  const app = new Hono()
  app.all('*', async (c) => {
    if (c.req.method !== 'GET') JSON.parse(await c.req.text())
    return c.body(bytes, 200, { 'content-type': 'application/json' })
  })
  return { app, url: 'http://127.0.0.1' }
}

const mocks = {
  before: await startInProcess(before, generation, process.env.PAIRED_LOG_LEVEL),
  after: await startInProcess(after, generation, process.env.PAIRED_LOG_LEVEL),
}
const rows = []
for (const route of routes) {
  // Writes start every batch from the state the route's set-up makes, as a round of the bench.
  const writes = route.bare.method !== 'GET'
  const prepared = {}
  for (const [label, mock] of Object.entries(mocks))
    prepared[label] = await route.prepare?.(mock.url, 1, generation)
  const sample = requestsOf(route.options(prepared.after)).take().req
  const answer = await mocks.after.app.fetch(
    new Request(mocks.after.url + sample.path, sample),
    incomingOf(sample)
  )
  const bare = bareApp(await answer.text())
  if (writes) prepared.after = await route.prepare?.(mocks.after.url, 1, generation)
  prepared.bare = prepared.after
  const runs = { before: [], after: [], bare: [] }
  const orders = [
    ['before', 'after', 'bare'],
    ['after', 'bare', 'before'],
    ['bare', 'before', 'after'],
  ]
  for (let round = -1; round < BATCHES; round++) {
    for (const label of orders[(round + 3) % 3]) {
      if (writes && round >= 0 && label !== 'bare')
        prepared[label] = await route.prepare?.(mocks[label].url, 1, generation)
      const side = label === 'bare' ? bare : mocks[label]
      // The first round warms up: a fresh process needs ~2,500 requests before V8 has compiled a route.
      const result = await batch(side, route, prepared[label], round < 0 ? WARM_UP : REQUESTS)
      if (round >= 0) runs[label].push(result)
    }
  }
  const med = (label, key) => summary(runs[label].map((r) => r[key])).median
  const own = (label) => med(label, 'cpu') - med('bare', 'cpu')
  rows.push({
    route: route.label,
    'bare CPU µs': +med('bare', 'cpu').toFixed(1),
    'before CPU µs': +med('before', 'cpu').toFixed(1),
    'after CPU µs': +med('after', 'cpu').toFixed(1),
    'own µs before → after': `${own('before').toFixed(1)} → ${own('after').toFixed(1)}`,
    'after ÷ before (own)': +(own('after') / own('before')).toFixed(3),
    'after ÷ before (wall)': +(med('after', 'wall') / med('before', 'wall')).toFixed(3),
  })
}
console.table(rows)
for (const mock of Object.values(mocks)) await mock.close()
