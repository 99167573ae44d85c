import { Novu as NovuApi } from '@novu/api'
import { ValidationErrorDto } from '@novu/api/models/errors/index.js'
import { Novu as NovuNode, StepTypeEnum } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { keyFactory } from './sdk-helpers.js'

// The official SDKs against the default generation, 2026-08, as they meet today's server.

const GENERAL_GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'
let mock: RunningMock
const nextKey = keyFactory('sdk-2026')

beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

const api = (secretKey = nextKey()) =>
  new NovuApi({ secretKey, serverURL: mock.url, retryConfig: { strategy: 'none' } })

describe('@novu/api 3.19.1', () => {
  test('messages.retrieve parses the messages of a transaction', async () => {
    const res = await api().messages.retrieve({ transactionId: ['tx-order-1001'] })

    expect(res.result.data).toHaveLength(3)
    expect(res.result.data[0]?.subscriber?.subscriberId).toBe('user-1042')
    expect(res.result.hasMore).toBe(false)
  })

  test('a 422 from the server surfaces as ValidationErrorDto with its errors', async () => {
    const error = await api()
      .messages.retrieve({ page: Infinity })
      .then(
        () => new Error('expected a rejection'),
        (e: unknown) => e
      )

    expect(error).toBeInstanceOf(ValidationErrorDto)
    const dto = error as ValidationErrorDto
    expect(dto.statusCode).toBe(422)
    expect(dto.errors.general?.messages).toEqual([
      'page must be a number conforming to the specified constraints',
    ])
  })

  test('messages.deleteByTransactionId accepts the tool channel', async () => {
    const res = await api().messages.deleteByTransactionId('tx-order-1001', 'tool')

    expect(res).toMatchObject({ headers: expect.any(Object) })
  })
})

describe('@novu/node 2.6.6', () => {
  test('notificationTemplates.create answers 201 with the newer identifier and origin', async () => {
    const res = await new NovuNode(nextKey(), {
      backendUrl: mock.url,
    }).notificationTemplates.create({
      name: 'InvoicePaid',
      notificationGroupId: GENERAL_GROUP_ID,
      steps: [{ template: { type: StepTypeEnum.IN_APP, content: 'Paid {{invoiceId}}' } }],
    })

    expect(res.status).toBe(201)
    expect(res.data.data).toMatchObject({
      origin: 'novu-cloud',
      triggers: [{ identifier: 'invoice-paid' }],
    })
  })

  test('with retryConfig, a 422 is sent again as against production', async () => {
    const novu = new NovuNode(nextKey(), {
      backendUrl: mock.url,
      retryConfig: { retryMax: 2, waitMin: 0.01, waitMax: 0.02 },
    })

    await expect(novu.topics.list({ pageSize: 11 })).rejects.toMatchObject({
      response: { status: 422 },
    })

    // Only this test lists topics on this mock.
    const journal = (await (
      await fetch(`${mock.url}/__admin/requests?method=GET&path=/v1/topics`)
    ).json()) as { data: { status: number }[] }
    expect(journal.data.map((entry) => entry.status)).toEqual([422, 422, 422])
  })
})
