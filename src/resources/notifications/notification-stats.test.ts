import { describe, expect, test } from 'vitest'
import { DEFAULT_KEY, request } from '../../../test/helpers.js'
import {
  createWorkflow,
  email,
  GENERATIONS,
  inApp,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// GET /v1/notifications/stats and /graph/stats (more facts §3).

async function twoTriggers(generation: (typeof GENERATIONS)[number]) {
  const mock = triggerMock(generation)
  const wf = await createWorkflow(mock.app, 'Two channels', [inApp('a'), email('s', 'b')])
  await request(mock.app, 'POST', '/v1/subscribers', {
    body: { subscriberId: 's1', email: 'a@b.io' },
  })
  for (let i = 0; i < 2; i++) await trigger(mock.app, { name: wf.identifier, to: 's1' })
  return { ...mock, wf }
}

describe.each(GENERATIONS)('%s: notification stats', (generation) => {
  test('a new environment has sent nothing', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'GET', '/v1/notifications/stats')

    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { weeklySent: 0, monthlySent: 0 } })
  })

  test('two triggers count two notifications in the week and the month', async () => {
    const { app } = await twoTriggers(generation)

    const res = await request(app, 'GET', '/v1/notifications/stats')

    expect(res.body).toEqual({ data: { weeklySent: 2, monthlySent: 2 } })
  })

  test('graph stats count notification and channel pairs per day', async () => {
    const { app, wf } = await twoTriggers(generation)

    const res = await request(app, 'GET', '/v1/notifications/graph/stats')

    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({ count: 4, templates: [wf._id] })
    expect([...res.body.data[0].channels].sort()).toEqual(['email', 'in_app'])
  })

  test('days=0 looks back to now only: an empty list', async () => {
    const { app } = await twoTriggers(generation)
    // A second later, so that no trigger shares the query's millisecond (`since` is inclusive).
    await request(app, 'POST', `/__admin/clock?apiKey=${DEFAULT_KEY}`, {
      body: { advance: '1s' },
      key: null,
    })

    const res = await request(app, 'GET', '/v1/notifications/graph/stats?days=0')

    expect(res.body).toEqual({ data: [] })
  })

  test('days=abc is refused by the command', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'GET', '/v1/notifications/graph/stats?days=abc')

    const text = 'days must be a number conforming to the specified constraints'
    if (generation === '2024-10') expect(res.body.message).toEqual([text])
    else {
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(
        `Validation failed for GetActivityGraphStatsCommand: days: ${text}`
      )
    }
  })
})
