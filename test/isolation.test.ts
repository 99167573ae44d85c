import { expect, test } from 'vitest'
import { AdminError } from '../src/admin/client.js'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

const WORKFLOW = { name: 'Isolated', notificationGroupId: '66fbb0a0c1f2e3d4a5b60001', steps: [] }

test('a per-key reset removes the rules that match only that key', async () => {
  const { admin } = createMock()
  await admin.forKey('a').addRule({ match: { path: '/v1/topics' }, fault: { status: 503 } })
  await admin.forKey('b').addRule({ match: { path: '/v1/topics' }, fault: { status: 503 } })

  await admin.reset('a')

  expect((await admin.rules()).data.map((r) => r.match.apiKey)).toEqual(['b'])
})

test('a per-key reset removes that key’s journal entries and keeps the others’', async () => {
  const { app, admin } = createMock()
  await request(app, 'GET', '/v1/topics', { key: 'a' })
  await request(app, 'GET', '/v1/topics', { key: 'b' })

  await admin.reset('a')

  expect(await admin.countRequests({ apiKey: 'a' })).toBe(0)
  expect(await admin.countRequests({ apiKey: 'b' })).toBe(1)
})

test('a times rule a test leaves unused does not fail the next test’s first call', async () => {
  const { app, admin } = createMock()
  const scoped = admin.forKey('orders')
  await scoped.addRule({
    match: { method: 'POST', path: '/v1/workflows' },
    fault: { status: 503 },
    times: 2,
  })
  expect(
    (await request(app, 'POST', '/v1/workflows', { key: 'orders', body: WORKFLOW })).status
  ).toBe(503)

  await scoped.reset()

  expect(
    (await request(app, 'POST', '/v1/workflows', { key: 'orders', body: WORKFLOW })).status
  ).toBe(201)
})

test('a per-key reset keeps the rules that match every key', async () => {
  const { admin } = createMock()
  await admin.addRule({ match: { path: '/v1/topics' }, delay: 1 })

  await admin.reset('a')

  expect((await admin.rules()).data).toHaveLength(1)
})

test('a per-key reset brings back the scenario’s rules for that key with fresh counters', async () => {
  const { app, admin } = createMock()
  await admin.loadScenario({
    name: 'keyed-rules',
    fixture: 'default',
    rules: [
      {
        id: 'a-fails',
        match: { apiKey: 'a', path: '/v1/topics' },
        fault: { status: 503 },
        times: 1,
      },
    ],
  })
  expect((await request(app, 'GET', '/v1/topics', { key: 'a' })).status).toBe(503)
  expect((await request(app, 'GET', '/v1/topics', { key: 'a' })).status).toBe(200)

  await admin.reset('a')

  expect((await admin.forKey('a').rules()).data).toMatchObject([{ id: 'a-fails', fired: 0 }])
  expect((await request(app, 'GET', '/v1/topics', { key: 'a' })).status).toBe(503)
})

test('a scoped client adds rules that match its key only', async () => {
  const { app, admin } = createMock()
  await admin.forKey('a').addRule({ match: { path: '/v1/topics' }, fault: { status: 503 } })

  expect((await request(app, 'GET', '/v1/topics', { key: 'b' })).status).toBe(200)
  expect((await request(app, 'GET', '/v1/topics', { key: 'a' })).status).toBe(503)
})

test('a scoped client refuses a rule that names another key', async () => {
  const { admin } = createMock()
  const added = admin.forKey('a').addRule({ match: { apiKey: 'b' }, fault: { status: 503 } })
  await expect(added).rejects.toThrow(/cannot match another key/)
})

test('a scoped client lists only its key’s rules', async () => {
  const { admin } = createMock()
  await admin.forKey('a').addRule({ id: 'mine', match: {}, delay: 1 })
  await admin.forKey('b').addRule({ id: 'theirs', match: {}, delay: 1 })
  await admin.addRule({ id: 'everyone', match: {}, delay: 1 })

  expect((await admin.forKey('a').rules()).data.map((r) => r.id)).toEqual(['mine'])
})

test('a scoped client cannot remove another key’s rule', async () => {
  const { admin } = createMock()
  await admin.forKey('b').addRule({ id: 'theirs', match: {}, delay: 1 })

  const removal = admin.forKey('a').removeRule('theirs')

  await expect(removal).rejects.toBeInstanceOf(AdminError)
  expect((await admin.rules()).data.map((r) => r.id)).toEqual(['theirs'])
})

test('a scoped client clears only its key’s rules', async () => {
  const { admin } = createMock()
  await admin.forKey('a').addRule({ match: {}, delay: 1 })
  await admin.forKey('b').addRule({ match: {}, delay: 1 })

  expect((await admin.forKey('a').clearRules()).data.removed).toBe(1)
  expect((await admin.rules()).data.map((r) => r.match.apiKey)).toEqual(['b'])
})

test('a scoped client counts and lists only its key’s requests', async () => {
  const { app, admin } = createMock()
  await request(app, 'GET', '/v1/topics', { key: 'alpha-key' })
  await request(app, 'GET', '/v1/topics', { key: 'bravo-key' })
  await request(app, 'GET', '/v1/topics', { key: 'bravo-key' })

  const alpha = admin.forKey('alpha-key')
  expect(await alpha.countRequests({ path: '/v1/topics' })).toBe(1)
  expect((await alpha.requests()).map((e) => e.apiKey)).toEqual(['alph…ey'])
})

test('a scoped client clears only its key’s journal entries', async () => {
  const { app, admin } = createMock()
  await request(app, 'GET', '/v1/topics', { key: 'a' })
  await request(app, 'GET', '/v1/topics', { key: 'b' })

  expect(await admin.forKey('a').clearRequests()).toBe(1)
  expect(await admin.countRequests()).toBe(1)
})

test('a scoped client refuses a filter that names another key', async () => {
  const { admin } = createMock()
  const scoped = admin.forKey('a')
  // The type forbids it; a JavaScript caller still gets told.
  await expect(scoped.countRequests({ apiKey: 'b' } as object)).rejects.toThrow(/scoped/)
})

test('a scoped client resets its key’s data and leaves the other key’s writes', async () => {
  const { app, admin } = createMock()
  await request(app, 'POST', '/v1/workflows', { key: 'a', body: WORKFLOW })
  await request(app, 'POST', '/v1/workflows', { key: 'b', body: WORKFLOW })

  await admin.forKey('a').reset()

  const names = async (key: string) =>
    ((await admin.exportState(key)).workflows as { name: string }[]).map((w) => w.name)
  expect(await names('a')).not.toContain('Isolated')
  expect(await names('b')).toContain('Isolated')
})

test('the journal keeps its order and capacity after one key’s entries are cleared', async () => {
  const { app, admin } = createMock({ journalSize: 3 })
  for (const path of ['/v1/topics', '/v1/workflows', '/v1/messages'])
    await request(app, 'GET', path, { key: path === '/v1/workflows' ? 'other' : 'mine' })

  await admin.clearRequests('other')
  for (const path of ['/v1/notification-groups', '/v1/topics?page=1'])
    await request(app, 'GET', path, { key: 'mine' })

  const paths = (await admin.requests()).map((e) => e.path)
  expect(paths).toEqual(['/v1/topics', '/v1/notification-groups', '/v1/messages'])
})

test('two suites driving one mock at once never see each other’s data, rules or counts', async () => {
  const { app, admin } = createMock()
  // Each suite: reset, a rule it leaves unused, writes, then exact reads; both interleaved.
  async function suite(key: string, rounds: number) {
    const scoped = admin.forKey(key)
    for (let round = 0; round < rounds; round++) {
      await scoped.reset()
      await scoped.addRule({
        match: { method: 'GET', path: '/v1/topics' },
        fault: { status: 503 },
        times: 5,
      })
      await new Promise((resolve) => setImmediate(resolve))
      const created = await request(app, 'POST', '/v1/workflows', {
        key,
        body: { ...WORKFLOW, name: key },
      })
      const listed = await request(app, 'GET', '/v1/topics', { key })
      expect(created.status).toBe(201)
      expect(listed.status).toBe(503)
      expect(await scoped.countRequests()).toBe(2)
      expect((await scoped.rules()).data).toMatchObject([{ remaining: { times: 4 } }])
      const workflows = (await scoped.exportState()).workflows as { name: string }[]
      expect(
        workflows.filter((w) => w.name === 'orders' || w.name === 'billing').map((w) => w.name)
      ).toEqual([key])
    }
  }
  await Promise.all([suite('orders', 10), suite('billing', 10)])
})

test('the admin API takes apiKey on DELETE /__admin/rules and DELETE /__admin/requests', async () => {
  const { app } = createMock()
  const post = (key: string) =>
    app.request(`/__admin/rules?apiKey=${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ match: { path: '/v1/topics' }, delay: 1 }),
    })
  await post('a')
  await post('b')
  await request(app, 'GET', '/v1/topics', { key: 'a' })

  const rules = await app.request('/__admin/rules?apiKey=a', { method: 'DELETE' })
  const requests = await app.request('/__admin/requests?apiKey=a', { method: 'DELETE' })

  expect(await rules.json()).toEqual({ data: { removed: 1 } })
  expect(await requests.json()).toEqual({ data: { cleared: 1 } })
})
