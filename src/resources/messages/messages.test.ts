import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { ISO_DATE, OBJECT_ID, request, withoutTimestamp } from '../../../test/helpers.js'

const ORDER_TX = 'tx-order-1001'
const WELCOME_TX = 'tx-welcome-2210'
const CHANNEL_MESSAGE = [
  'channel must be one of the following values: in_app, email, sms, chat, push',
]

const mock = () => createMock({ apiGeneration: '2024-10', seed: 'test' }).app

type Message = { _id: string; channel: string; transactionId: string; createdAt: string }
const channels = (body: { data: Message[] }) => body.data.map((m) => m.channel).sort()

// GET /v1/messages

test('lists messages in the upstream envelope with page 0 and pageSize 10 by default', async () => {
  const res = await request(mock(), 'GET', '/v1/messages')
  expect(res.status).toBe(200)
  expect(Object.keys(res.body)).toEqual(['page', 'totalCount', 'hasMore', 'pageSize', 'data'])
  expect(res.body).toMatchObject({ page: 0, pageSize: 10, hasMore: true })
  expect(res.body.totalCount).toBeGreaterThan(10)
  expect(res.body.data).toHaveLength(10)
})

test('lists messages newest first', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?limit=100')
  expect(res.status).toBe(200)
  const times = res.body.data.map((m: Message) => m.createdAt)
  expect(times).toEqual([...times].sort().reverse())
  expect(res.body.hasMore).toBe(false)
  expect(res.body.data).toHaveLength(res.body.totalCount)
})

test('filters by transactionId', async () => {
  const res = await request(mock(), 'GET', `/v1/messages?transactionId=${ORDER_TX}`)
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ page: 0, totalCount: 3, hasMore: false, pageSize: 10 })
  expect(res.body.data.map((m: Message) => m.channel)).toEqual(['email', 'sms', 'in_app'])
  expect(res.body.data.every((m: Message) => m.transactionId === ORDER_TX)).toBe(true)
})

test('filters by several transactionIds when the parameter repeats', async () => {
  const res = await request(
    mock(),
    'GET',
    `/v1/messages?transactionId=${ORDER_TX}&transactionId=${WELCOME_TX}`
  )
  expect(res.status).toBe(200)
  expect(res.body.totalCount).toBe(5)
})

test('filters by channel', async () => {
  const res = await request(mock(), 'GET', `/v1/messages?transactionId=${ORDER_TX}&channel=sms`)
  expect(res.status).toBe(200)
  expect(res.body.totalCount).toBe(1)
  expect(res.body.data[0]).toMatchObject({ _id: '66fbb0a0c1f2e3d4a5b63002', channel: 'sms' })
})

test('filters by subscriberId', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?subscriberId=user-1042&limit=100')
  expect(res.status).toBe(200)
  expect(res.body.totalCount).toBeGreaterThanOrEqual(3)
  for (const message of res.body.data) expect(message.subscriber.subscriberId).toBe('user-1042')
})

test('answers 404 for an unknown subscriberId', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?subscriberId=nobody')
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: '/v1/messages?subscriberId=nobody',
    message: 'Subscriber not found for id nobody',
    error: 'Not Found',
  })
})

test('finds every subscriber that a topic lists, with or without messages', async () => {
  const app = mock()
  const topics = await Promise.all(
    [0, 1, 2].map((page) => request(app, 'GET', `/v1/topics?page=${page}`))
  )
  const ids = [
    ...new Set(
      topics.flatMap((t) =>
        t.body.data.flatMap((topic: { subscribers: string[] }) => topic.subscribers)
      )
    ),
  ]
  expect(ids.length).toBeGreaterThan(2)
  const statuses = await Promise.all(
    ids.map(async (id) => [
      id,
      (await request(app, 'GET', `/v1/messages?subscriberId=${id}`)).status,
    ])
  )
  expect(statuses).toEqual(ids.map((id) => [id, 200]))
})

test('answers 200 with no message for a channel that no message has', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?channel=fax')
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ page: 0, totalCount: 0, hasMore: false, pageSize: 10, data: [] })
})

test('pages with page and limit, and tells whether more remain', async () => {
  const app = mock()
  const first = await request(app, 'GET', `/v1/messages?transactionId=${ORDER_TX}&page=0&limit=2`)
  const second = await request(app, 'GET', `/v1/messages?transactionId=${ORDER_TX}&page=1&limit=2`)
  expect(first.status).toBe(200)
  expect(first.body).toMatchObject({ page: 0, pageSize: 2, totalCount: 3, hasMore: true })
  expect(second.body).toMatchObject({ page: 1, pageSize: 2, totalCount: 3, hasMore: false })
  expect(second.body.data.map((m: Message) => m.channel)).toEqual(['in_app'])
})

test('reads limit=0 as the default limit of 10', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?limit=0')
  expect(res.status).toBe(200)
  expect(res.body.pageSize).toBe(10)
  expect(res.body.data).toHaveLength(10)
})

test('accepts a limit of 1000', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?limit=1000')
  expect(res.status).toBe(200)
  expect(res.body.pageSize).toBe(1000)
})

test('answers 400 with the limit string for limit=1001', async () => {
  const res = await request(mock(), 'GET', '/v1/messages?limit=1001')
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path: '/v1/messages?limit=1001',
    message: 'Limit can not be larger then 1000',
    error: 'Bad Request',
  })
})

test.each([
  {
    query: '?page=abc',
    message: ['page must be a number conforming to the specified constraints'],
  },
  {
    query: '?limit=abc',
    message: ['limit must be a number conforming to the specified constraints'],
  },
])('answers 400 for a non-numeric $query', async ({ query, message }) => {
  const res = await request(mock(), 'GET', `/v1/messages${query}`)
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path: `/v1/messages${query}`,
    message,
    error: 'Bad Request',
  })
})

test('renders a message with its id virtual, populated subscriber and no actor', async () => {
  const res = await request(mock(), 'GET', `/v1/messages?transactionId=${ORDER_TX}&channel=in_app`)
  expect(res.status).toBe(200)
  const [message] = res.body.data
  expect(message).toMatchObject({
    _id: '66fbb0a0c1f2e3d4a5b63001',
    id: '66fbb0a0c1f2e3d4a5b63001',
    _templateId: '66fbb0a0c1f2e3d4a5b61002',
    _environmentId: expect.stringMatching(OBJECT_ID),
    _organizationId: expect.stringMatching(OBJECT_ID),
    _subscriberId: expect.stringMatching(OBJECT_ID),
    transactionId: ORDER_TX,
    channel: 'in_app',
    content: 'Order 1001 is on its way',
    seen: false,
    read: false,
    archived: false,
    deleted: false,
    status: 'sent',
    actorSubscriber: null,
    createdAt: expect.stringMatching(ISO_DATE),
    updatedAt: expect.stringMatching(ISO_DATE),
  })
  expect(message.subscriber).toEqual({
    _id: message._subscriberId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    avatar: null,
    subscriberId: 'user-1042',
    id: message._subscriberId,
  })
  expect(message).not.toHaveProperty('providerResponse')
  expect(message).not.toHaveProperty('template')
})

// DELETE /v1/messages/transaction/:transactionId

test('answers 204 with an empty body and no content type, and removes every message of the transaction', async () => {
  const app = mock()
  const res = await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}`)
  expect(res.status).toBe(204)
  expect(res.text).toBe('')
  expect(res.headers.get('content-type')).toBeNull()
  const after = await request(app, 'GET', `/v1/messages?transactionId=${ORDER_TX}`)
  expect(after.body).toMatchObject({ totalCount: 0, hasMore: false, data: [] })
})

test('removes only the email messages with ?channel=email', async () => {
  const app = mock()
  const res = await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}?channel=email`)
  expect(res.status).toBe(204)
  const after = await request(app, 'GET', `/v1/messages?transactionId=${ORDER_TX}`)
  expect(channels(after.body)).toEqual(['in_app', 'sms'])
})

test('answers 204 and removes nothing when the channel matches no message of the transaction', async () => {
  const app = mock()
  const res = await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}?channel=chat`)
  expect(res.status).toBe(204)
  expect(res.text).toBe('')
  const after = await request(app, 'GET', `/v1/messages?transactionId=${ORDER_TX}`)
  expect(channels(after.body)).toEqual(['email', 'in_app', 'sms'])
})

test('leaves the other transactions alone', async () => {
  const app = mock()
  await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}`)
  const other = await request(app, 'GET', `/v1/messages?transactionId=${WELCOME_TX}`)
  expect(channels(other.body)).toEqual(['email', 'in_app'])
})

test('drops deleted messages from the unfiltered list and its count', async () => {
  const app = mock()
  const before = await request(app, 'GET', '/v1/messages?limit=1000')
  await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}?channel=email`)
  const after = await request(app, 'GET', '/v1/messages?limit=1000')
  expect(after.body.totalCount).toBe(before.body.totalCount - 1)
  expect(after.body.data.map((m: Message) => m._id)).not.toContain('66fbb0a0c1f2e3d4a5b63003')
})

test.each(['fax', 'EMAIL', ''])(
  'answers 400 with the channel enum message for channel=%j',
  async (channel) => {
    const path = `/v1/messages/transaction/${ORDER_TX}?channel=${channel}`
    const res = await request(mock(), 'DELETE', path)
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 400,
      path,
      message: CHANNEL_MESSAGE,
      error: 'Bad Request',
    })
  }
)

test('validates the channel before looking up the transaction', async () => {
  const res = await request(mock(), 'DELETE', '/v1/messages/transaction/abc-1234?channel=fax')
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual(CHANNEL_MESSAGE)
})

test('answers 404 "Invalid transactionId or channel" for an unknown transaction', async () => {
  const res = await request(mock(), 'DELETE', '/v1/messages/transaction/abc-1234')
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: '/v1/messages/transaction/abc-1234',
    message: 'Invalid transactionId or channel',
    error: 'Not Found',
  })
})

test('answers 404 for an unknown transaction even with a valid channel', async () => {
  const res = await request(mock(), 'DELETE', '/v1/messages/transaction/abc-1234?channel=email')
  expect(res.status).toBe(404)
  expect(res.body).toMatchObject({
    message: 'Invalid transactionId or channel',
    error: 'Not Found',
  })
})

test('answers 404 to a repeat after a full delete', async () => {
  const app = mock()
  const first = await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}`)
  const second = await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}`)
  expect(first.status).toBe(204)
  expect(second.status).toBe(404)
  expect(withoutTimestamp(second.body)).toEqual({
    statusCode: 404,
    path: `/v1/messages/transaction/${ORDER_TX}`,
    message: 'Invalid transactionId or channel',
    error: 'Not Found',
  })
})

test('answers 204 while any message of the transaction is live, then 404', async () => {
  const app = mock()
  const statuses: number[] = []
  for (const channel of ['email', 'email', 'sms', 'in_app', 'in_app'])
    statuses.push(
      (await request(app, 'DELETE', `/v1/messages/transaction/${ORDER_TX}?channel=${channel}`))
        .status
    )
  expect(statuses).toEqual([204, 204, 204, 204, 404])
})

test('deletes the messages of a transaction with a Production key', async () => {
  const res = await request(mock(), 'DELETE', `/v1/messages/transaction/${ORDER_TX}`, {
    key: 'production-key',
  })
  expect(res.status).toBe(204)
})

test('answers 400 "messageId must be a mongodb id" to DELETE /v1/messages/transaction', async () => {
  const res = await request(mock(), 'DELETE', '/v1/messages/transaction')
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path: '/v1/messages/transaction',
    message: ['messageId must be a mongodb id'],
    error: 'Bad Request',
  })
})
