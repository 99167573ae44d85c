import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, type Requestable } from './helpers.js'
import { createWorkflow, inApp, trigger } from './trigger-helpers.js'

// The process's caches (src/cache.ts) as GET /__admin/caches shows them, and issue 18's finding
// 4: caches bounded in bytes, keys included, and a reset releases what the key held. The caches
// are per process (per test file here): tests compare before and after, never absolute counts.

interface CacheView {
  name: string
  kind: string
  entries: number
  bytes: number
  maxBytes: number | null
  hits: number
  misses: number
  hitRate: number
}

async function caches(
  app: Requestable
): Promise<{ enabled: boolean; bytes: number; caches: CacheView[] }> {
  const res = await request(app, 'GET', '/__admin/caches')
  expect(res.status).toBe(200)
  return res.body
}
const named = async (app: Requestable, name: string) =>
  (await caches(app)).caches.find((c) => c.name === name) as CacheView

test('GET /__admin/caches lists every cache with its size, bounds and hit rate', async () => {
  const { app } = createMock({ seed: 'caches' })
  await request(app, 'GET', '/v1/topics')
  await request(app, 'GET', '/v1/topics')
  const view = await caches(app)
  expect(view.enabled).toBe(true)
  const names = view.caches.map((c) => c.name)
  for (const name of [
    'list answers',
    'handlebars templates',
    'liquid templates',
    'body texts',
    'hydrated workflows',
  ])
    expect(names).toContain(name)
  expect(view.bytes).toBe(view.caches.reduce((sum, c) => sum + c.bytes, 0))
  expect(view.caches.find((c) => c.name === 'list answers')?.hits).toBeGreaterThanOrEqual(1)
})

// Before the test that fills the cache: an entry added here pushes none out.
test('a reset of one key releases the list answers its stores held', async () => {
  const { app } = createMock({ seed: 'caches' })
  const before = (await named(app, 'list answers')).entries
  for (let page = 0; page < 5; page++)
    expect((await request(app, 'GET', `/v1/topics?page=${page}`, { key: 'reset-me' })).status).toBe(
      200
    )
  expect((await named(app, 'list answers')).entries).toBe(before + 5)
  expect((await request(app, 'POST', '/__admin/reset?apiKey=reset-me')).status).toBe(200)
  expect((await named(app, 'list answers')).entries).toBe(before)
})

test('compiled Handlebars templates are held under their byte bound, whatever their number', async () => {
  const { app } = createMock({ seed: 'caches', scenario: 'empty' })
  const subscriber = await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 's1' } })
  expect(subscriber.status).toBe(201)
  for (let i = 0; i < 24; i++) {
    const text = `{{payload.name}} ${i} ${'x'.repeat(700_000)}`
    const { identifier } = await createWorkflow(app, `Big ${i}`, [inApp(text)])
    expect(
      (await trigger(app, { name: identifier, to: 's1', payload: { name: 'n' } })).status
    ).toBe(201)
  }
  const compiled = await named(app, 'handlebars templates')
  expect(compiled.maxBytes).not.toBeNull()
  expect(compiled.bytes).toBeLessThanOrEqual(compiled.maxBytes as number)
  expect(compiled.entries).toBeLessThan(24)
})

test('the list answer cache counts its keys: long queries stay under its byte bound', async () => {
  const { app } = createMock({ seed: 'caches' })
  for (let i = 0; i < 700; i++) {
    const res = await request(app, 'GET', `/v1/messages?transactionId=${i}-${'t'.repeat(15_000)}`)
    expect(res.status).toBe(200)
  }
  const answers = await named(app, 'list answers')
  expect(answers.bytes).toBeLessThanOrEqual(answers.maxBytes as number)
  expect(answers.entries).toBeLessThan(700)
})

test('caches off, the same reads answer the same and no cache answers', async () => {
  const on = createMock({ seed: 'caches' })
  const reads = async (app: Requestable) => {
    const first = await request(app, 'GET', '/v1/topics?page=0')
    const second = await request(app, 'GET', '/v1/topics?page=0')
    return [first.text, second.text]
  }
  const cached = await reads(on.app)
  const off = createMock({ seed: 'caches', caches: 'off' })
  try {
    expect(await reads(off.app)).toEqual(cached)
    const view = await caches(off.app)
    expect(view.enabled).toBe(false)
    expect(view.caches.every((c) => c.entries === 0)).toBe(true)
  } finally {
    createMock({ caches: 'on' })
  }
})
