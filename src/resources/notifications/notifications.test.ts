import { describe, expect, test } from 'vitest'
import { request, withoutTimestamp } from '../../../test/helpers.js'
import {
  createWorkflow,
  email,
  fixedClockMock,
  inApp,
  sms,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// GET /v1/notifications and /v1/notifications/{id}: the activity feed of triggers.

async function twoTriggers(generation: '2026-08' | '2024-10') {
  const mock = triggerMock(generation)
  const wf = await createWorkflow(mock.app, 'Feed', [inApp('a'), email('s', 'b')])
  const other = await createWorkflow(mock.app, 'Texts', [sms('c')])
  await trigger(mock.app, {
    name: wf.identifier,
    to: { subscriberId: 'u1', email: 'u1@test.io', firstName: 'Ada' },
    transactionId: 'tx1',
  })
  await trigger(mock.app, {
    name: other.identifier,
    to: { subscriberId: 'u2', phone: '+1' },
    transactionId: 'tx2',
  })
  return { ...mock, wf, other }
}

describe('GET /v1/notifications', () => {
  test('lists one notification per trigger and subscriber, newest first, not wrapped', async () => {
    const { app, wf } = await twoTriggers('2024-10')
    const res = await request(app, 'GET', '/v1/notifications')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['page', 'hasMore', 'pageSize', 'data'])
    expect(res.body).toMatchObject({ page: 0, hasMore: false, pageSize: 10 })
    expect(res.body.data.map((n: { transactionId: string }) => n.transactionId)).toEqual([
      'tx2',
      'tx1',
    ])
    const first = res.body.data[1]
    expect(first).toMatchObject({
      channels: ['in_app', 'email'],
      to: { subscriberId: 'u1', email: 'u1@test.io', firstName: 'Ada' },
      template: { _id: wf._id, name: 'Feed' },
      subscriber: { subscriberId: 'u1', firstName: 'Ada', email: 'u1@test.io' },
    })
    expect(
      first.jobs.map((j: { type: string; status: string; providerId: string }) => [
        j.type,
        j.status,
        j.providerId,
      ])
    ).toEqual([
      ['in_app', 'completed', 'novu'],
      ['email', 'completed', 'novu-email'],
    ])
  })

  test('filters by channels, templates, subscriberIds, emails and transactionId', async () => {
    const { app, other } = await twoTriggers('2026-08')
    const ids = async (query: string) =>
      (await request(app, 'GET', `/v1/notifications?${query}`)).body.data.map(
        (n: { transactionId: string }) => n.transactionId
      )
    expect(await ids('channels=sms')).toEqual(['tx2'])
    expect(await ids(`templates=${other._id}`)).toEqual(['tx2'])
    expect(await ids('subscriberIds=u1')).toEqual(['tx1'])
    expect(await ids('emails=u1@test.io')).toEqual(['tx1'])
    expect(await ids('transactionId=tx2')).toEqual(['tx2'])
  })

  test('an unknown subscriber filter answers an empty first page', async () => {
    const { app } = await twoTriggers('2026-08')
    const res = await request(app, 'GET', '/v1/notifications?subscriberIds=nobody&page=3')
    expect(res.body).toEqual({ page: 0, hasMore: false, pageSize: 10, data: [] })
  })

  test('hasMore is true when a page is full', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Many', [inApp('x')])
    await trigger(mock.app, {
      name: wf.identifier,
      to: Array.from({ length: 10 }, (_, i) => `s${i}`),
    })
    const res = await request(mock.app, 'GET', '/v1/notifications')
    expect(res.body.data).toHaveLength(10)
    expect(res.body.hasMore).toBe(true)
  })

  test('2026-08 takes a limit of at most 50', async () => {
    const { app } = await twoTriggers('2026-08')
    const one = await request(app, 'GET', '/v1/notifications?limit=1')
    expect(one.body).toMatchObject({ pageSize: 1, hasMore: true })
    const tooMany = await request(app, 'GET', '/v1/notifications?limit=51')
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.errors.general.messages).toEqual(['limit must not be greater than 50'])
  })

  test('2024-10 refuses a page that is not a number with the command message', async () => {
    const { app } = await twoTriggers('2024-10')
    const res = await request(app, 'GET', '/v1/notifications?page=abc')
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'page must be a number conforming to the specified constraints',
    ])
  })

  test('an unknown channel is refused by the command', async () => {
    const { app } = await twoTriggers('2026-08')
    const res = await request(app, 'GET', '/v1/notifications?channels=fax')
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'Validation failed for GetActivityFeedCommand: channels: each value in channels must be one of the following values: in_app, email, sms, chat, push, tool'
    )
  })

  test('2026-08 filters by date and refuses a bad one', async () => {
    const mock = await fixedClockMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Feed', [inApp('a')])
    await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    const after = await request(mock.app, 'GET', '/v1/notifications?after=2025-03-01T10:00:01.000Z')
    expect(after.body.data).toEqual([])
    const bad = await request(mock.app, 'GET', '/v1/notifications?after=yesterday')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(
      "Invalid date format for parameter 'after': yesterday. Please provide a valid ISO 8601 date string."
    )
  })

  test('2026-08 items are the mapped DTO: no __v, severity, no id virtuals', async () => {
    const { app } = await twoTriggers('2026-08')
    const [item] = (await request(app, 'GET', '/v1/notifications?transactionId=tx1')).body.data
    expect(item.__v).toBeUndefined()
    expect(item.id).toBeUndefined()
    expect(item).toMatchObject({
      severity: 'none',
      critical: false,
      template: { origin: 'novu-cloud-v1' },
    })
    expect(item.expireAt).toBeUndefined()
  })
})

describe('GET /v1/notifications/{notificationId}', () => {
  test('answers one notification wrapped in data', async () => {
    const { app } = await twoTriggers('2026-08')
    const [item] = (await request(app, 'GET', '/v1/notifications?transactionId=tx1')).body.data
    const res = await request(app, 'GET', `/v1/notifications/${item._id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: item })
  })

  test('2024-10 answers data null for a well-formed unknown id; 2026-08 a 404', async () => {
    const old = await request(
      triggerMock('2024-10').app,
      'GET',
      '/v1/notifications/66fbb0a0c1f2e3d4a5b6ffff'
    )
    expect(old.status).toBe(200)
    expect(old.body).toEqual({ data: null })
    const today = await request(
      triggerMock('2026-08').app,
      'GET',
      '/v1/notifications/66fbb0a0c1f2e3d4a5b6ffff'
    )
    expect(today.status).toBe(404)
    expect(withoutTimestamp(today.body)).toEqual({
      error: 'Not Found',
      statusCode: 404,
      path: '/v1/notifications/66fbb0a0c1f2e3d4a5b6ffff',
      message: 'Notification not found',
      ctx: { error: 'Not Found', statusCode: 404 },
    })
  })

  test('a malformed id fails the command', async () => {
    const old = await request(triggerMock('2024-10').app, 'GET', '/v1/notifications/nope')
    expect(old.status).toBe(400)
    expect(old.body.message).toEqual(['notificationId must be a mongodb id'])
    const today = await request(triggerMock('2026-08').app, 'GET', '/v1/notifications/nope')
    expect(today.status).toBe(422)
    expect(today.body.errors).toEqual({
      notificationId: { messages: ['notificationId must be a mongodb id'], value: 'nope' },
    })
  })
})
