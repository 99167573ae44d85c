// Shows that a page of GET /v1/topics costs the same with 100,000 topics as with 100:
// the store pages an array and indexes keys, it never scans the collection.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DIST } from './harness.mjs'

// The build under test (BENCH_DIST): npm run bench folds this table into its results.
const { createMock } = await import(pathToFileURL(join(DIST, 'index.js')).href)

const dir = mkdtempSync(join(tmpdir(), 'novu-mock-bench-'))
function scenario(name, topics) {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ name, data: { generate: { topics } } }))
  return name
}

const headers = { Authorization: 'ApiKey bench' }

async function timePerRequest(app, path, rounds) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < rounds; i++) await (await app.request(path, { headers })).arrayBuffer()
  return Number(process.hrtime.bigint() - start) / rounds / 1000
}

export async function topicsScale({ rounds = 5000 } = {}) {
  const rows = []
  for (const count of [100, 100_000]) {
    const { app } = createMock({
      scenario: scenario(`topics-${count}`, count),
      scenariosDir: dir,
      logLevel: 'silent',
    })
    const lastPage = Math.floor((count - 1) / 10)
    const paths = [
      '/v1/topics?page=0&pageSize=10',
      `/v1/topics?page=${lastPage}&pageSize=10`,
      '/v1/topics?key=beta-testers-1',
    ]
    // All three warm before any is timed: the first timed loop must not pay for JIT or GC.
    for (let i = 0; i < 3000; i++)
      await (await app.request(paths[i % 3], { headers })).arrayBuffer()
    rows.push({
      topics: count,
      'first page (µs)': (await timePerRequest(app, paths[0], rounds)).toFixed(1),
      'last page (µs)': (await timePerRequest(app, paths[1], rounds)).toFixed(1),
      'key filter (µs)': (await timePerRequest(app, paths[2], rounds)).toFixed(1),
    })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('GET /v1/topics, in-process (app.request), mean per request:')
  console.table(await topicsScale())
}
