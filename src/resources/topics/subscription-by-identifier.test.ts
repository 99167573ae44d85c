import { describe, expect, test } from 'vitest'
import { request } from '../../../test/helpers.js'
import { triggerMock } from '../../../test/trigger-helpers.js'

// GET/PATCH /v2/topics/:topicKey/subscriptions/:identifier (more facts §4), on the default data.

const ID = 'tk_team-alpha:si_user-1042'
const PATH = `/v2/topics/team-alpha/subscriptions/${ID}`
const mock = () => triggerMock('2026-08', { scenario: 'default' }).app

describe('2026-08: one topic subscription by identifier', () => {
  test('GET answers id and identifier, no topic, no preferences when there are none', async () => {
    const res = await request(mock(), 'GET', PATH)

    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), identifier: ID })
  })

  test('GET of an unknown identifier answers 204 with an empty body', async () => {
    const res = await request(mock(), 'GET', '/v2/topics/team-alpha/subscriptions/nope')

    expect(res.status).toBe(204)
    expect(res.text).toBe('')
  })

  test('PATCH renames, keeps the identifier, and answers the subscription with topic and subscriber', async () => {
    const app = mock()

    const res = await request(app, 'PATCH', PATH, { body: { name: 'Renamed' } })

    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      identifier: ID,
      name: 'Renamed',
      topic: { key: 'team-alpha', name: 'Team Alpha' },
      subscriber: { subscriberId: 'user-1042' },
    })
    expect((await request(app, 'GET', PATH)).body.data.name).toBe('Renamed')
  })

  test('PATCH preferences resolve workflows by identifier and GET shows them', async () => {
    const app = mock()
    const wf = (await request(app, 'GET', '/v1/workflows/66fbb0a0c1f2e3d4a5b61001')).body.data

    const res = await request(app, 'PATCH', PATH, {
      body: { preferences: [{ workflowId: wf.triggers[0].identifier, enabled: false }] },
    })
    const read = await request(app, 'GET', PATH)

    expect(res.body.data.preferences[0]).toMatchObject({ enabled: false, subscriptionId: ID })
    expect(read.body.data.preferences).toEqual([
      {
        workflow: expect.objectContaining({ id: wf._id, name: 'Welcome Email', severity: 'none' }),
        subscriptionId: ID,
        enabled: false,
      },
    ])
  })

  test('PATCH of an unknown topic and of an unknown subscription answer 404', async () => {
    const app = mock()

    const topic = await request(app, 'PATCH', '/v2/topics/nope/subscriptions/x', { body: {} })
    const sub = await request(app, 'PATCH', '/v2/topics/team-alpha/subscriptions/x', { body: {} })

    expect(topic.status).toBe(404)
    expect(topic.body.message).toBe('Topic with key nope not found')
    expect(sub.status).toBe(404)
    expect(sub.body.message).toBe('Subscription with identifier x not found for topic team-alpha')
  })

  test('preferences given as strings are refused over HTTP', async () => {
    const res = await request(mock(), 'PATCH', PATH, { body: { preferences: ['welcome-email'] } })

    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'preferences.each value in nested property preferences must be either object or array',
    ])
  })
})

test('2024-10 has no such route: Express 404', async () => {
  const { app } = triggerMock('2024-10', { scenario: 'default' })

  const res = await request(app, 'GET', PATH)

  expect(res.status).toBe(404)
  expect(res.body.message).toBe(`Cannot GET ${PATH}`)
})
