import { Novu, StepTypeEnum } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { DECLARED_KEY, keyFactory, listTransaction, startStrictMock } from './sdk-helpers.js'

// The legacy SDK as a consumer uses it: axios responses, `res.status` and `res.data`, and an
// AxiosError carrying the parsed error body for anything that is not 2xx.

const GENERAL_GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'
const WELCOME_EMAIL_ID = '66fbb0a0c1f2e3d4a5b61001'
const ORDER_SHIPPED_ID = '66fbb0a0c1f2e3d4a5b61002'
const OBJECT_ID = /^[0-9a-f]{24}$/

let mock: RunningMock
const nextKey = keyFactory('sdk-node')

beforeAll(async () => {
  mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

/** A client on its own environment, so no test sees another's writes. */
const client = (apiKey = nextKey()) => new Novu(apiKey, { backendUrl: mock.url })

/** The SDK's INotificationTemplatePayload, which its package index does not re-export. */
type WorkflowPayload = Parameters<Novu['notificationTemplates']['create']>[0]

const invoicePaid: WorkflowPayload = {
  name: 'Invoice Paid',
  notificationGroupId: GENERAL_GROUP_ID,
  description: 'Sent when a payment clears',
  tags: ['billing'],
  steps: [
    {
      name: 'In-App',
      template: { type: StepTypeEnum.IN_APP, content: 'Invoice {{invoiceId}} is paid' },
    },
  ],
}

/** What the SDK rejects with: an AxiosError whose response holds the status and parsed body. */
const axiosError = (status: number, body: Record<string, unknown>) => ({
  isAxiosError: true,
  message: `Request failed with status code ${status}`,
  response: { status, data: { statusCode: status, timestamp: expect.any(String), ...body } },
})

describe('topics.list', () => {
  test('returns the first page of topics un-enveloped, in insertion order', async () => {
    const res = await client().topics.list({ page: 0, pageSize: 2 })

    expect(res.status).toBe(200)
    expect(res.data).toEqual({
      page: 0,
      pageSize: 2,
      totalCount: 23,
      data: [
        expect.objectContaining({ key: 'beta-testers', name: 'Beta testers', subscribers: [] }),
        expect.objectContaining({ key: 'team-alpha', name: 'Team Alpha' }),
      ],
    })
    expect(Object.keys(res.data.data[0]).sort()).toEqual(
      ['_environmentId', '_id', '_organizationId', 'key', 'name', 'subscribers'].sort()
    )
  })

  test('returns only the topic whose key matches, with the default page size', async () => {
    const res = await client().topics.list({ key: 'team-alpha' })

    expect(res.status).toBe(200)
    expect(res.data).toMatchObject({ page: 0, pageSize: 10, totalCount: 1 })
    expect(res.data.data).toHaveLength(1)
    expect(res.data.data[0]).toMatchObject({
      _id: expect.stringMatching(OBJECT_ID),
      key: 'team-alpha',
    })
    expect([...res.data.data[0].subscribers].sort()).toEqual(['user-1042', 'user-2210'])
  })

  test('rejects a page size over 10 with 400', async () => {
    await expect(client().topics.list({ pageSize: 11 })).rejects.toMatchObject(
      axiosError(400, { message: 'Page size can not be larger then 10', error: 'Bad Request' })
    )
  })
})

describe('notificationGroups', () => {
  test('get lists the groups in data, General first', async () => {
    const res = await client().notificationGroups.get()

    expect(res.status).toBe(200)
    expect(res.data.data).toHaveLength(4)
    expect(res.data.data[0]).toMatchObject({ _id: GENERAL_GROUP_ID, name: 'General' })
  })

  test('create answers 201 with the new group in data', async () => {
    const res = await client().notificationGroups.create('Security alerts')

    expect(res.status).toBe(201)
    expect(res.data.data).toMatchObject({
      _id: expect.stringMatching(OBJECT_ID),
      name: 'Security alerts',
    })
  })

  test('delete answers 200 with acknowledged and status deleted', async () => {
    const novu = client()
    const groups = await novu.notificationGroups.get()
    const billing = (groups.data.data as { _id: string; name: string }[]).find(
      (g) => g.name === 'Billing'
    )
    expect(billing).toBeDefined()

    const res = await novu.notificationGroups.delete(billing!._id)

    expect(res.status).toBe(200)
    expect(res.data.data).toEqual({ acknowledged: true, status: 'deleted' })
    const after = await novu.notificationGroups.get()
    expect(after.data.data.map((g: { name: string }) => g.name)).not.toContain('Billing')
  })

  test('delete removes a group the consumer just created', async () => {
    const novu = client()
    const created = await novu.notificationGroups.create('Temporary')

    const res = await novu.notificationGroups.delete(created.data.data._id)

    expect(res.status).toBe(200)
    expect(res.data.data).toEqual({ acknowledged: true, status: 'deleted' })
  })

  test('a second delete rejects with 404 Not Found and no error key', async () => {
    const novu = client()
    await novu.notificationGroups.delete(GENERAL_GROUP_ID)

    const error = await novu.notificationGroups.delete(GENERAL_GROUP_ID).catch((e: unknown) => e)

    expect(error).toMatchObject(
      axiosError(404, { message: 'Not Found', path: `/v1/notification-groups/${GENERAL_GROUP_ID}` })
    )
    expect((error as { response: { data: object } }).response.data).not.toHaveProperty('error')
  })
})

describe('messages.deleteByTransactionId', () => {
  test('answers 204 with an empty body and removes every message of the transaction', async () => {
    const apiKey = nextKey()

    const res = await client(apiKey).messages.deleteByTransactionId('tx-order-1001')

    expect(res.status).toBe(204)
    expect(res.data).toBe('')
    expect(await listTransaction(mock, apiKey, 'tx-order-1001')).toMatchObject({
      totalCount: 0,
      data: [],
    })
  })

  test('a second delete rejects with 404 Invalid transactionId or channel', async () => {
    const novu = client()
    await novu.messages.deleteByTransactionId('tx-order-1001')

    await expect(novu.messages.deleteByTransactionId('tx-order-1001')).rejects.toMatchObject(
      axiosError(404, {
        message: 'Invalid transactionId or channel',
        error: 'Not Found',
        path: '/v1/messages/transaction/tx-order-1001',
      })
    )
  })

  test('an unknown transaction rejects with 404', async () => {
    await expect(client().messages.deleteByTransactionId('tx-never-sent')).rejects.toMatchObject(
      axiosError(404, { message: 'Invalid transactionId or channel', error: 'Not Found' })
    )
  })
})

describe('notificationTemplates.create', () => {
  test('answers 201 with an inactive draft workflow and its trigger', async () => {
    const res = await client().notificationTemplates.create(invoicePaid)

    expect(res.status).toBe(201)
    expect(res.data.data).toMatchObject({
      _id: expect.stringMatching(OBJECT_ID),
      name: 'Invoice Paid',
      description: 'Sent when a payment clears',
      tags: ['billing'],
      _notificationGroupId: GENERAL_GROUP_ID,
      active: false,
      draft: true,
      critical: false,
      triggers: [
        {
          type: 'event',
          identifier: 'invoice-paid',
          variables: [expect.objectContaining({ name: 'invoiceId' })],
        },
      ],
    })
    expect(res.data.data.steps).toHaveLength(1)
    expect(res.data.data.steps[0].template).toMatchObject({
      type: 'in_app',
      content: 'Invoice {{invoiceId}} is paid',
    })
  })

  test('suffixes the trigger identifier when the name is already taken', async () => {
    const res = await client().notificationTemplates.create({
      ...invoicePaid,
      name: 'Welcome Email',
    })

    expect(res.status).toBe(201)
    expect(res.data.data.triggers[0].identifier).toMatch(/^welcome-email-[A-Za-z0-9_-]+$/)
  })

  test('honours active: true and then leaves draft false', async () => {
    const res = await client().notificationTemplates.create({ ...invoicePaid, active: true })

    expect(res.status).toBe(201)
    expect(res.data.data).toMatchObject({ active: true, draft: false })
  })

  test('answers 201 when the client retries and so sends an Idempotency-Key', async () => {
    const novu = new Novu(nextKey(), {
      backendUrl: mock.url,
      retryConfig: { retryMax: 1, waitMin: 0.01 },
    })

    const res = await novu.notificationTemplates.create(invoicePaid)

    expect(res.status).toBe(201)
    expect(res.config.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.data.data.triggers[0].identifier).toBe('invoice-paid')
  })

  test('rejects a payload without steps with 400 and the message array', async () => {
    // `steps` is optional in the SDK's typing but required by the server.
    const withoutSteps: WorkflowPayload = {
      name: 'Invoice Paid',
      notificationGroupId: GENERAL_GROUP_ID,
    }

    await expect(client().notificationTemplates.create(withoutSteps)).rejects.toMatchObject(
      axiosError(400, {
        message: ['steps should not be null or undefined', 'steps must be an array'],
        error: 'Bad Request',
        path: '/v1/notification-templates',
      })
    )
  })

  test('rejects a notificationGroupId that is not an ObjectId with 400', async () => {
    const payload = { ...invoicePaid, notificationGroupId: 'general' }

    await expect(client().notificationTemplates.create(payload)).rejects.toMatchObject(
      axiosError(400, {
        message: ['notificationGroupId must be a mongodb id'],
        error: 'Bad Request',
      })
    )
  })
})

describe('notificationTemplates.updateStatus', () => {
  test('activates a created workflow and clears its draft flag', async () => {
    const novu = client()
    const created = await novu.notificationTemplates.create(invoicePaid)

    const res = await novu.notificationTemplates.updateStatus(created.data.data._id, true)

    expect(res.status).toBe(200)
    expect(res.data.data).toMatchObject({ _id: created.data.data._id, active: true, draft: false })
  })

  test('deactivates a seeded active workflow', async () => {
    const res = await client().notificationTemplates.updateStatus(WELCOME_EMAIL_ID, false)

    expect(res.status).toBe(200)
    expect(res.data.data).toMatchObject({
      _id: WELCOME_EMAIL_ID,
      active: false,
      draft: true,
      triggers: [expect.objectContaining({ identifier: 'welcome-email' })],
    })
  })

  test('rejects the same status sent twice with 400', async () => {
    const novu = client()
    await novu.notificationTemplates.updateStatus(ORDER_SHIPPED_ID, true)

    await expect(
      novu.notificationTemplates.updateStatus(ORDER_SHIPPED_ID, true)
    ).rejects.toMatchObject(
      axiosError(400, { message: 'You must provide a different status from the current status' })
    )
  })

  test('rejects an unknown id with 404', async () => {
    const unknownId = '66fbb0a0c1f2e3d4a5b6ffff'

    await expect(
      client().notificationTemplates.updateStatus(unknownId, true)
    ).rejects.toMatchObject(
      axiosError(404, {
        message: `Template with id ${unknownId} not found`,
        error: 'Not Found',
        path: `/v1/notification-templates/${unknownId}/status`,
      })
    )
  })
})

describe('with a Production key', () => {
  const production = () => client('production-key')
  const devOnly = {
    message: 'This action is only allowed in Development environment',
    error: 'Unauthorized',
  }

  test('notificationTemplates.create rejects with 401', async () => {
    await expect(production().notificationTemplates.create(invoicePaid)).rejects.toMatchObject(
      axiosError(401, devOnly)
    )
  })

  test('notificationTemplates.updateStatus rejects with 401', async () => {
    await expect(
      production().notificationTemplates.updateStatus(ORDER_SHIPPED_ID, true)
    ).rejects.toMatchObject(axiosError(401, devOnly))
  })

  test('notificationGroups.delete still answers 200', async () => {
    const res = await production().notificationGroups.delete('66fbb0a0c1f2e3d4a5b60002')

    expect(res.status).toBe(200)
    expect(res.data.data).toEqual({ acknowledged: true, status: 'deleted' })
  })

  test('topics.list still answers 200', async () => {
    const res = await production().topics.list({ key: 'beta-testers' })

    expect(res.status).toBe(200)
    expect(res.data).toMatchObject({ totalCount: 1 })
  })
})

describe('authentication', () => {
  test('the SDK refuses to build a client without a secret key, before any request', () => {
    expect(() => new Novu('', { backendUrl: mock.url })).toThrow(/Missing secret key/)
  })

  test('an undeclared key rejects with 401 API Key not found on a strict mock', async () => {
    const strict = await startStrictMock()
    try {
      const novu = new Novu('not-a-real-key', { backendUrl: strict.url })

      await expect(novu.topics.list({})).rejects.toMatchObject(
        axiosError(401, { message: 'API Key not found', error: 'Unauthorized', path: '/v1/topics' })
      )
    } finally {
      await strict.close()
    }
  })

  test('the declared key is accepted on a strict mock', async () => {
    const strict = await startStrictMock()
    try {
      const res = await new Novu(DECLARED_KEY, { backendUrl: strict.url }).topics.list({
        key: 'team-alpha',
      })

      expect(res.status).toBe(200)
      expect(res.data).toMatchObject({ totalCount: 1 })
    } finally {
      await strict.close()
    }
  })
})
