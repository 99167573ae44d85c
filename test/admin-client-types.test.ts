import { afterAll, beforeAll, expect, expectTypeOf, test } from 'vitest'
import {
  startMock,
  type ClockView,
  type Health,
  type RuleInput,
  type RuleView,
  type RunningMock,
  type StateData,
} from '../src/index.js'

// The admin client's types come from the zod schemas that validate the admin routes: a wrong
// rule does not type-check (npm run typecheck fails), and what the calls answer has the
// fields those schemas give. The runtime half checks the answers match the types.

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

test('health is typed with the API generation, and answers it', async () => {
  const health = await mock.admin.health()
  expectTypeOf(health).toEqualTypeOf<Health>()
  expectTypeOf(health.apiGeneration).toEqualTypeOf<'2024-10' | '2026-08'>()
  expect(health).toMatchObject({ status: 'ok', apiGeneration: '2026-08', scenario: 'default' })
})

test('addRule takes a typed rule and refuses a misspelt one at compile time', async () => {
  const rule: RuleInput = {
    match: { method: 'GET', path: '/v1/topics', apiKey: 'typed' },
    sequence: [{ status: 503 }, { pass: true }],
  }
  // @ts-expect-error a status is a number
  const wrongStatus: RuleInput = { match: { path: '/v1/topics' }, fault: { status: '503' } }
  // @ts-expect-error match has no field "url"
  const wrongMatch: RuleInput = { match: { url: '/v1/topics' }, fault: { status: 503 } }
  expect([wrongStatus, wrongMatch]).toHaveLength(2)

  const { data } = await mock.admin.addRule(rule)
  expectTypeOf(data).toEqualTypeOf<RuleView>()
  expect(data).toMatchObject({ source: 'admin', remaining: { sequence: 2 } })
  await mock.admin.removeRule(data.id)
})

test('journal entries carry their JSON body parsed, typed as the test asks', async () => {
  const scoped = mock.admin.forKey('typed-journal')
  await fetch(`${mock.url}/v1/topics`, {
    method: 'POST',
    headers: { Authorization: 'ApiKey typed-journal', 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: 'news', name: 'News' }),
  })
  const [entry] = await scoped.requests<{ key: string; name: string }>({ method: 'POST' })
  expectTypeOf(entry?.json).toEqualTypeOf<{ key: string; name: string } | undefined>()
  expect(entry?.json).toEqual({ key: 'news', name: 'News' })
})

test('a body that is no JSON leaves json out and keeps the text', async () => {
  const scoped = mock.admin.forKey('typed-text')
  await fetch(`${mock.url}/v1/topics`, {
    method: 'POST',
    headers: { Authorization: 'ApiKey typed-text', 'Content-Type': 'application/json' },
    body: '{"key":',
  })
  const [entry] = await scoped.requests({ method: 'POST' })
  expect(entry?.body).toBe('{"key":')
  expect(entry).not.toHaveProperty('json')
})

test('state and clock answers are typed as their schemas say', async () => {
  const scoped = mock.admin.forKey('typed-state')
  const state = await scoped.exportState()
  expectTypeOf(state).toEqualTypeOf<StateData>()
  expect(state.topics?.length).toBeGreaterThan(0)
  const clock = await scoped.advanceClock('1m')
  expectTypeOf(clock).toEqualTypeOf<ClockView>()
  expect(clock).toMatchObject({ fixed: false, pending: 0, ran: 0 })
})
