// Shows that a page of GET /v1/topics costs the same with 100,000 topics as with 100:
// the store pages an array and indexes keys, it never scans the collection.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMock } from '../dist/index.js'

const dir = mkdtempSync(join(tmpdir(), 'novu-mock-bench-'))
function scenario(name, topics) {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ name, data: { generate: { topics } } }))
  return name
}

async function timePerRequest(app, path, rounds) {
  const headers = { Authorization: 'ApiKey bench' }
  for (let i = 0; i < 200; i++) await (await app.request(path, { headers })).arrayBuffer()
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
    await app.request('/v1/topics', { headers: { Authorization: 'ApiKey bench' } })
    const lastPage = Math.floor((count - 1) / 10)
    rows.push({
      topics: count,
      'first page (µs)': (
        await timePerRequest(app, '/v1/topics?page=0&pageSize=10', rounds)
      ).toFixed(1),
      'last page (µs)': (
        await timePerRequest(app, `/v1/topics?page=${lastPage}&pageSize=10`, rounds)
      ).toFixed(1),
      'key filter (µs)': (
        await timePerRequest(app, '/v1/topics?key=beta-testers-1', rounds)
      ).toFixed(1),
    })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('GET /v1/topics, in-process (app.request), mean per request:')
  console.table(await topicsScale())
}
