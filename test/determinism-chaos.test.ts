import { afterEach, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'

const mocks: RunningMock[] = []
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((m) => m.close()))
})

const chaotic = {
  name: 'chaotic',
  fixture: 'default',
  rules: [
    { match: { path: '/v1/*' }, delay: { distribution: 'uniform', min: 5, max: 60 } },
    { match: { path: '/v1/*' }, fault: { status: 503 }, probability: 0.25 },
    { match: { path: '/v1/*' }, fault: { network: 'reset' }, probability: 0.1 },
  ],
}

/** Runs the same request sequence and notes what each call gave and how long it took. */
async function run(seed: string) {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, seed, logLevel: 'silent' })
  mocks.push(mock)
  await mock.admin.loadScenario(chaotic)
  const outcomes: { status: number | 'network error'; body: string }[] = []
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${mock.url}/v1/topics?page=${i % 3}`, {
      headers: { Authorization: 'ApiKey det', Connection: 'close' },
    }).catch(() => undefined)
    const body = res ? (await res.text()).replace(/"timestamp":"[^"]+"/, '') : ''
    outcomes.push({ status: res?.status ?? 'network error', body })
  }
  const delays = (await mock.admin.requests({ limit: 100 })).map((e) => e.delayMs ?? 0).reverse()
  return { outcomes, delays }
}

test('the same seed and scenario give the same statuses, bodies and delays on every run', async () => {
  const [first, second] = await Promise.all([run('same'), run('same')])
  expect(second.outcomes.map((o) => o.status)).toEqual(first.outcomes.map((o) => o.status))
  expect(second.outcomes.map((o) => o.body)).toEqual(first.outcomes.map((o) => o.body))
  expect(new Set(first.outcomes.map((o) => o.status)).size).toBeGreaterThan(1)
  // The delays drawn are the same to the hundredth of a millisecond; wall time only adds noise.
  expect(second.delays).toEqual(first.delays)
  expect(first.delays.filter((d) => d > 0).length).toBeGreaterThan(0)
})

test('another seed gives another fault sequence', async () => {
  const [first, second] = await Promise.all([run('one'), run('two')])
  expect(second.outcomes.map((o) => o.status)).not.toEqual(first.outcomes.map((o) => o.status))
})
