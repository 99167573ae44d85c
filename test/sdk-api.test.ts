import { Novu } from '@novu/api'
import { ErrorDto } from '@novu/api/models/errors/index.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { DECLARED_KEY, keyFactory, listTransaction, startStrictMock } from './sdk-helpers.js'

// The Speakeasy SDK accepts only 204 from this operation and maps every JSON error body through
// its ErrorDto schema, which requires statusCode, timestamp and path. Retries are off so that a
// misbehaving mock fails fast instead of backing off for an hour.

let mock: RunningMock
const nextKey = keyFactory('sdk-api')

beforeAll(async () => {
  mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

const client = (secretKey: string | undefined, serverURL = mock.url) =>
  new Novu({
    ...(secretKey === undefined ? {} : { secretKey }),
    serverURL,
    retryConfig: { strategy: 'none' },
  })

/** Awaits a call that must fail and checks that it failed with an ErrorDto. */
async function errorDto(call: Promise<unknown>): Promise<ErrorDto> {
  const error = await call.then(
    () => new Error('expected the call to reject'),
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ErrorDto)
  return error as ErrorDto
}

describe('messages.deleteByTransactionId', () => {
  test('resolves on 204 and removes every message of the transaction', async () => {
    const apiKey = nextKey()

    const res = await client(apiKey).messages.deleteByTransactionId('tx-welcome-2210')

    expect(res).toMatchObject({ headers: expect.any(Object) })
    expect(await listTransaction(mock, apiKey, 'tx-welcome-2210')).toMatchObject({
      totalCount: 0,
      data: [],
    })
  })

  test('with a channel, removes only that channel and keeps the in-app message', async () => {
    const apiKey = nextKey()

    await client(apiKey).messages.deleteByTransactionId('tx-order-1001', 'email')

    const left = await listTransaction(mock, apiKey, 'tx-order-1001')
    expect(left).toMatchObject({ page: 0, totalCount: 2, hasMore: false })
    expect(left.data.map((m) => m.channel).sort()).toEqual(['in_app', 'sms'])
  })

  test('with a channel the transaction does not use, resolves and deletes nothing', async () => {
    const apiKey = nextKey()

    await client(apiKey).messages.deleteByTransactionId('tx-welcome-2210', 'sms')

    expect(await listTransaction(mock, apiKey, 'tx-welcome-2210')).toMatchObject({ totalCount: 2 })
  })

  test('a second full delete rejects with ErrorDto 404 Invalid transactionId or channel', async () => {
    const novu = client(nextKey())
    await novu.messages.deleteByTransactionId('tx-order-1001')

    const error = await errorDto(novu.messages.deleteByTransactionId('tx-order-1001'))

    expect(error.statusCode).toBe(404)
    expect(error.message).toBe('Invalid transactionId or channel')
    expect(error.data$).toMatchObject({
      statusCode: 404,
      path: '/v1/messages/transaction/tx-order-1001',
      timestamp: expect.any(String),
    })
    expect(JSON.parse(error.body)).toMatchObject({
      message: 'Invalid transactionId or channel',
      error: 'Not Found',
    })
    expect(error.contentType).toMatch(/^application\/json/)
  })

  test('a delete of the remaining channels after a channel delete still resolves', async () => {
    const novu = client(nextKey())
    await novu.messages.deleteByTransactionId('tx-order-1001', 'email')

    await expect(novu.messages.deleteByTransactionId('tx-order-1001')).resolves.toBeDefined()
  })

  test('a channel delete after a full delete rejects with ErrorDto 404', async () => {
    const novu = client(nextKey())
    await novu.messages.deleteByTransactionId('tx-welcome-2210')

    const error = await errorDto(novu.messages.deleteByTransactionId('tx-welcome-2210', 'in_app'))

    expect(error.statusCode).toBe(404)
    expect(error.message).toBe('Invalid transactionId or channel')
    expect(error.data$.path).toBe('/v1/messages/transaction/tx-welcome-2210?channel=in_app')
  })

  test('a percent-encoded unknown transaction id reaches the route and rejects with 404', async () => {
    const error = await errorDto(client(nextKey()).messages.deleteByTransactionId('tx/3 ?'))

    expect(error.statusCode).toBe(404)
    expect(error.message).toBe('Invalid transactionId or channel')
  })
})

describe('authentication', () => {
  test('a client without a secret key rejects with ErrorDto 401 Missing authorization header', async () => {
    const error = await errorDto(client(undefined).messages.deleteByTransactionId('tx-order-1001'))

    expect(error.statusCode).toBe(401)
    expect(error.message).toBe('Missing authorization header')
    expect(error.data$).toMatchObject({
      statusCode: 401,
      path: '/v1/messages/transaction/tx-order-1001',
    })
  })

  test('an undeclared key rejects with ErrorDto 401 API Key not found on a strict mock', async () => {
    const strict = await startStrictMock()
    try {
      const error = await errorDto(
        client('not-a-real-key', strict.url).messages.deleteByTransactionId('tx-order-1001')
      )

      expect(error.statusCode).toBe(401)
      expect(error.message).toBe('API Key not found')
      expect(JSON.parse(error.body)).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    } finally {
      await strict.close()
    }
  })

  test('the declared key deletes on a strict mock', async () => {
    const strict = await startStrictMock()
    try {
      await expect(
        client(DECLARED_KEY, strict.url).messages.deleteByTransactionId('tx-order-1001')
      ).resolves.toBeDefined()
    } finally {
      await strict.close()
    }
  })
})
