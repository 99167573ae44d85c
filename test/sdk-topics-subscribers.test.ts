import { Novu } from '@novu/api'
import { ErrorDto, ValidationErrorDto } from '@novu/api/models/errors/index.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { keyFactory } from './sdk-helpers.js'

// @novu/api 3.19.1's topics, topics.subscriptions and subscribers calls against the default
// generation, 2026-08: every answer must parse, and the errors must be the SDK's typed ones.

let mock: RunningMock
const nextKey = keyFactory('sdk-topics')

beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

const api = (secretKey = nextKey()) =>
  new Novu({ secretKey, serverURL: mock.url, retryConfig: { strategy: 'none' } })

/** The rejection of a promise, for a closer look. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error
  )

describe('topics', () => {
  test('list parses a page, and the next cursor pages through every topic once', async () => {
    const novu = api()
    const keys: string[] = []
    let after: string | undefined
    for (let round = 0; round < 10; round++) {
      const { result } = await novu.topics.list({ limit: 10, ...(after ? { after } : {}) })
      keys.push(...result.data.map((topic) => topic.key))
      expect(result.totalCountCapped).toBe(false)
      if (!result.next) break
      after = result.next
    }
    expect(keys).toHaveLength(23)
    expect(new Set(keys).size).toBe(23)
  })

  test('list filters by key and maps _id to id', async () => {
    const { result } = await api().topics.list({ key: 'team-alpha' })
    expect(result.data).toEqual([
      {
        id: '66fbb0a0c1f2e3d4a5b62002',
        key: 'team-alpha',
        name: 'Team Alpha',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ])
  })

  test('create, get, update and delete parse, and get after delete is an ErrorDto 404', async () => {
    const novu = api()
    const created = await novu.topics.create({ key: 'sdk-news', name: 'News' })
    expect(created.result).toMatchObject({ key: 'sdk-news', name: 'News' })
    const read = await novu.topics.get('sdk-news')
    expect(read.result.id).toBe(created.result.id)
    const updated = await novu.topics.update({ name: 'Product news' }, 'sdk-news')
    expect(updated.result.name).toBe('Product news')
    const deleted = await novu.topics.delete('sdk-news')
    expect(deleted.result).toEqual({ acknowledged: true })
    const error = await rejection(novu.topics.get('sdk-news'))
    expect(error).toBeInstanceOf(ErrorDto)
    expect((error as ErrorDto).statusCode).toBe(404)
    expect((error as ErrorDto).message).toContain('Topic with key sdk-news not found')
  })

  test('create without a name parses', async () => {
    const { result } = await api().topics.create({ key: 'sdk-bare' })
    expect(result).not.toHaveProperty('name')
  })

  test('a 422 surfaces as ValidationErrorDto with the pipe messages', async () => {
    const error = await rejection(api().topics.list({ limit: 101 }))
    expect(error).toBeInstanceOf(ValidationErrorDto)
    expect((error as ValidationErrorDto).errors.general?.messages).toEqual([
      'limit must not be greater than 100',
    ])
  })
})

describe('topics.subscriptions', () => {
  test('create, list and delete parse, with the per-subscriber results', async () => {
    const novu = api()
    const created = await novu.topics.subscriptions.create(
      { subscriberIds: ['user-1042', 'ghost'] },
      'sdk-members'
    )
    expect(created.result.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 })
    expect(created.result.data[0]?.subscriber?.subscriberId).toBe('user-1042')
    expect(created.result.errors?.[0]).toMatchObject({
      subscriberId: 'ghost',
      code: 'SUBSCRIBER_NOT_FOUND',
    })
    const listed = await novu.topics.subscriptions.list({ topicKey: 'sdk-members' })
    expect(listed.result.data.map((s) => s.subscriber.subscriberId)).toEqual(['user-1042'])
    const removed = await novu.topics.subscriptions.delete(
      { subscriptions: [{ subscriberId: 'user-1042' }] },
      'sdk-members'
    )
    expect(removed.result.meta.successful).toBe(1)
  })

  test('create with subscription objects parses', async () => {
    const { result } = await api().topics.subscriptions.create(
      { subscriptions: [{ identifier: 'ada-1', subscriberId: 'user-1042' }] },
      'beta-testers'
    )
    expect(result.data[0]).toMatchObject({ identifier: 'ada-1', topic: { key: 'beta-testers' } })
  })

  test('a subscription every item of which failed surfaces as an ErrorDto 400 with its ctx', async () => {
    const error = await rejection(
      api().topics.subscriptions.create({ subscriberIds: ['ghost'] }, 'beta-testers')
    )
    expect(error).toBeInstanceOf(ErrorDto)
    expect((error as ErrorDto).statusCode).toBe(400)
    expect((error as ErrorDto).ctx?.meta).toEqual({ totalCount: 1, successful: 0, failed: 1 })
  })
})

describe('subscribers', () => {
  test('create, retrieve, patch, search and delete parse', async () => {
    const novu = api()
    const created = await novu.subscribers.create({
      subscriberId: 'sdk-ada',
      firstName: 'Ada',
      email: 'ada@example.com',
      data: { plan: 'pro' },
    })
    expect(created.result).toMatchObject({
      subscriberId: 'sdk-ada',
      deleted: false,
      data: { plan: 'pro' },
    })
    const read = await novu.subscribers.retrieve('sdk-ada')
    expect(read.result.id).toBe(created.result.id)
    const patched = await novu.subscribers.patch({ lastName: 'Lovelace', email: null }, 'sdk-ada')
    expect(patched.result).toMatchObject({ lastName: 'Lovelace', email: null })
    const found = await novu.subscribers.search({ name: 'ada love', limit: 100 })
    expect(found.result.data.map((s) => s.subscriberId).sort()).toEqual(['sdk-ada', 'user-1042'])
    const byId = await novu.subscribers.search({ subscriberId: 'sdk-ada' })
    expect(byId.result.data).toHaveLength(1)
    const deleted = await novu.subscribers.delete('sdk-ada')
    expect(deleted.result).toEqual({ acknowledged: true, status: 'deleted' })
  })

  test('search pages through every subscriber with the next cursor', async () => {
    const novu = api()
    const ids: string[] = []
    let after: string | undefined
    for (let round = 0; round < 20; round++) {
      const { result } = await novu.subscribers.search({ limit: 3, ...(after ? { after } : {}) })
      ids.push(...result.data.map((s) => s.subscriberId))
      if (!result.next) break
      after = result.next
    }
    const total = (await novu.subscribers.search({ limit: 100 })).result.totalCount
    expect(ids).toHaveLength(total)
    expect(new Set(ids).size).toBe(total)
  })

  test('retrieve of an unknown subscriber is an ErrorDto 404', async () => {
    const error = await rejection(api().subscribers.retrieve('ghost'))
    expect(error).toBeInstanceOf(ErrorDto)
    expect((error as ErrorDto).statusCode).toBe(404)
    expect((error as ErrorDto).message).toContain('Subscriber: ghost was not found')
  })

  test('an invalid email is a ValidationErrorDto', async () => {
    const error = await rejection(api().subscribers.create({ subscriberId: 'x', email: 'nope' }))
    expect(error).toBeInstanceOf(ValidationErrorDto)
    expect((error as ValidationErrorDto).errors.general?.messages).toEqual([
      'email must be an email',
    ])
  })

  test('messages.retrieve still parses the messages of a patched subscriber', async () => {
    const novu = api()
    await novu.subscribers.patch(
      { firstName: 'Augusta', avatar: 'https://example.com/a.png' },
      'user-1042'
    )
    const res = await novu.messages.retrieve({ subscriberId: 'user-1042' })
    expect(res.result.data[0]?.subscriber?.firstName).toBe('Augusta')
  })
})
