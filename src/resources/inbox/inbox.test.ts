import { describe, expect, test } from 'vitest'
import { request, withoutTimestamp } from '../../../test/helpers.js'
import {
  createWorkflow,
  inApp,
  trigger,
  triggerMock,
  GENERATIONS,
} from '../../../test/trigger-helpers.js'

// The in-app feed of one subscriber, read and marked through the API key (subscriber facts §4).

type App = ReturnType<typeof triggerMock>['app']

async function feedOf(app: App, count: number) {
  const wf = await createWorkflow(app, 'Feed', [inApp('Note {{n}}')])
  for (let n = 0; n < count; n++)
    expect((await trigger(app, { name: wf.identifier, to: 'u1', payload: { n } })).status).toBe(201)
  const res = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed?limit=100')
  return res.body.data as { _id: string; content: string }[]
}

describe.each(GENERATIONS)('the v1 inbox (%s)', (generation) => {
  test('the feed lists the in-app messages triggers created, newest first, unwrapped', async () => {
    const { app } = triggerMock(generation)
    await feedOf(app, 3)
    const res = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed?limit=2')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ totalCount: 2, hasMore: true, pageSize: 2, page: 0 })
    expect(res.body.data.map((m: { content: string }) => m.content)).toEqual(['Note 2', 'Note 1'])
    expect(res.body.data[0]).toMatchObject({
      channel: 'in_app',
      seen: false,
      read: false,
      template: { tags: [] },
    })
  })

  test('the feed filters on a base64 payload and refuses one that is not', async () => {
    const { app } = triggerMock(generation)
    await feedOf(app, 2)
    const payload = Buffer.from(JSON.stringify({ n: 1 })).toString('base64')
    const res = await request(
      app,
      'GET',
      `/v1/subscribers/u1/notifications/feed?payload=${payload}`
    )
    expect(res.body.data.map((m: { content: string }) => m.content)).toEqual(['Note 1'])
    const bad = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed?payload=%%%')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(
      'Invalid payload, the JSON object should be encoded to base64 string.'
    )
  })

  test('the feed of an unknown subscriber answers 400', async () => {
    const { app } = triggerMock(generation)
    const res = await request(app, 'GET', '/v1/subscribers/ghost/notifications/feed')
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'Subscriber not found for this environment with the id: ghost. Make sure to create a subscriber before fetching the feed.'
    )
  })

  test('the feed refuses a limit over 100', async () => {
    const { app } = triggerMock(generation)
    const res = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed?limit=101')
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain('limit must not be greater than 100')
  })

  test('mark-as read sets read, seen and both dates, and the unseen count drops', async () => {
    const { app } = triggerMock(generation)
    const [first] = await feedOf(app, 2)
    const before = await request(app, 'GET', '/v1/subscribers/u1/notifications/unseen')
    expect(before.body).toEqual({ data: { count: 2 } })
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-as', {
      body: { messageId: first?._id, markAs: 'read' },
    })
    expect(res.status).toBe(201)
    expect(res.body.data[0]).toMatchObject({ _id: first?._id, read: true, seen: true })
    expect(res.body.data[0].lastReadDate).toBe(res.body.data[0].lastSeenDate)
    const after = await request(app, 'GET', '/v1/subscribers/u1/notifications/unseen')
    expect(after.body).toEqual({ data: { count: 1 } })
    const read = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed?read=true')
    expect(read.body.data.map((m: { _id: string }) => m._id)).toEqual([first?._id])
  })

  test('mark-as with an unknown markAs names the four values', async () => {
    const { app } = triggerMock(generation)
    const [first] = await feedOf(app, 1)
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-as', {
      body: { messageId: first?._id, markAs: 'bogus' },
    })
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain(
      'markAs must be one of the following values: read, seen, unread, unseen'
    )
  })

  test('mark-all marks every unread in-app message and answers how many changed', async () => {
    const { app } = triggerMock(generation)
    await feedOf(app, 3)
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-all', {
      body: { markAs: 'read' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ data: 3 })
    const again = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-all', {
      body: { markAs: 'read' },
    })
    expect(again.body).toEqual({ data: 0 })
  })

  test('mark-all without markAs is the command validation error', async () => {
    const { app } = triggerMock(generation)
    await feedOf(app, 1)
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-all', { body: {} })
    if (generation === '2024-10') {
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual(['markAs should not be null or undefined'])
    } else {
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(
        'Validation failed for MarkAllMessagesAsCommand: markAs: markAs should not be null or undefined'
      )
    }
  })

  test('a message action records its type, status and payload once', async () => {
    const { app } = triggerMock(generation)
    const [first] = await feedOf(app, 1)
    const path = `/v1/subscribers/u1/messages/${first?._id}/actions/primary`
    const res = await request(app, 'POST', path, { body: { status: 'done', payload: { ok: 1 } } })
    expect(res.status).toBe(201)
    expect(res.body.data.cta.action).toMatchObject({
      status: 'done',
      result: { type: 'primary', payload: { ok: 1 } },
    })
    const again = await request(app, 'POST', path, { body: { status: 'done', payload: { ok: 1 } } })
    expect(again.status).toBe(400)
    expect(withoutTimestamp(again.body).message).toMatch(
      /^Message with the id: .* was not found for this environment/
    )
  })

  test('a message action without a status names both checks', async () => {
    const { app } = triggerMock(generation)
    const [first] = await feedOf(app, 1)
    const res = await request(
      app,
      'POST',
      `/v1/subscribers/u1/messages/${first?._id}/actions/primary`,
      { body: {} }
    )
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain('status should not be null or undefined')
    expect(res.text).toContain('status must be a string')
  })
})

describe('mark-as differences', () => {
  test('2024-10 answers 400 "messageId is required" for an empty list', async () => {
    const { app } = triggerMock('2024-10')
    await feedOf(app, 1)
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-as', {
      body: { messageId: [], markAs: 'read' },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('messageId is required')
  })

  test('2026-08 refuses an id that is not an ObjectId with 422', async () => {
    const { app } = triggerMock('2026-08')
    const res = await request(app, 'POST', '/v1/subscribers/u1/messages/mark-as', {
      body: { messageId: 'x', markAs: 'read' },
    })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds',
    ])
  })
})

describe('the v2 inbox', () => {
  test('2024-10 has no v2 inbox routes', async () => {
    const { app } = triggerMock('2024-10')
    const res = await request(app, 'GET', '/v2/subscribers/u1/notifications')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Cannot GET /v2/subscribers/u1/notifications')
  })

  test('an unknown subscriber is 400 and an unknown notification 404', async () => {
    const { app } = triggerMock('2026-08')
    const ghost = await request(app, 'GET', '/v2/subscribers/ghost/notifications')
    expect([ghost.status, ghost.body.message]).toEqual([
      400,
      'Subscriber with id: ghost is not found.',
    ])
    await feedOf(app, 1)
    const id = '66fbb0a0c1f2e3d4a5b69999'
    const res = await request(app, 'PATCH', `/v2/subscribers/u1/notifications/${id}/read`)
    expect([res.status, res.body.message]).toEqual([
      404,
      `Notification with id: ${id} is not found.`,
    ])
  })

  test('a limit over 100 is refused', async () => {
    const { app } = triggerMock('2026-08')
    await feedOf(app, 1)
    const res = await request(app, 'GET', '/v2/subscribers/u1/notifications?limit=101')
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['limit must not be greater than 100'])
  })

  test('the list pages with offset and says whether more follow', async () => {
    const { app } = triggerMock('2026-08')
    await feedOf(app, 3)
    const res = await request(app, 'GET', '/v2/subscribers/u1/notifications?limit=2&offset=1')
    expect(res.body.data.map((n: { body: string }) => n.body)).toEqual(['Note 1', 'Note 0'])
    expect(res.body.hasMore).toBe(false)
  })
})
