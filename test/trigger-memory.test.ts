import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import { createWorkflow, email, inApp, snapshot } from './trigger-helpers.js'

// What triggers create counts against the process memory budget: a sustained load ends in a
// clear 403, with nothing stored by the refused trigger, and a reset gives the memory back.

test('a sustained trigger load ends in 403 naming --max-memory-mb and the refused trigger stores nothing', async () => {
  const mock = createMock({
    scenario: 'empty',
    maxMemoryMb: 24,
    journalSize: 0,
    logLevel: 'silent',
  })
  const { app, state } = mock
  const wf = await createWorkflow(app, 'Load', [inApp('Hi {{n}}'), email('s {{n}}', 'b {{n}}')])
  const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `s${i}`, email: `s${i}@x.io` }))
  let refused
  for (let n = 0; n < 500 && !refused; n++) {
    const before = n % 10 === 0 ? await snapshot(mock) : undefined
    const res = await request(app, 'POST', '/v1/events/trigger', {
      body: { name: wf.identifier, to, payload: { n } },
    })
    if (res.status !== 201) {
      refused = res
      if (before) expect(await snapshot(mock)).toBe(before)
    }
  }
  expect(refused?.status).toBe(403)
  expect(refused?.body.message).toMatch(
    /memory budget of \d+ MB.*the records this trigger creates.*--max-memory-mb/
  )
  expect(state.environments.budget.used()).toBeLessThanOrEqual(state.environments.budget.limit)
  await request(app, 'POST', '/__admin/reset', { key: null })
  const again = await request(app, 'POST', '/v1/workflows', {
    body: {
      name: 'Again',
      notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
      active: true,
      steps: [inApp('x')],
    },
  })
  expect(again.status).toBe(201)
}, 60_000)

test('a refused trigger leaves the environment as it was', async () => {
  const mock = createMock({
    scenario: 'empty',
    maxMemoryMb: 24,
    journalSize: 0,
    logLevel: 'silent',
  })
  const wf = await createWorkflow(mock.app, 'Big', [inApp('x')])
  const to = Array.from({ length: 20_000 }, (_, i) => `s${i}`)
  const before = await snapshot(mock)
  const res = await request(mock.app, 'POST', '/v1/events/trigger', {
    body: { name: wf.identifier, to },
  })
  expect(res.status).toBe(403)
  expect(await snapshot(mock)).toBe(before)
})
