import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { OBJECT_ID, request, withoutTimestamp } from './helpers.js'

// The default generation answers as today's server (upstream 3.19.0): see novu-api-2026.md.
// Each test builds its own mock, so none sees another's writes.

const GENERAL_GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'
const ORDER_SHIPPED_ID = '66fbb0a0c1f2e3d4a5b61002'
const mock = () => createMock({ seed: 'test' })
const app = () => mock().app

const workflow = (extra: Record<string, unknown> = {}) => ({
  name: 'Invoice Paid',
  notificationGroupId: GENERAL_GROUP_ID,
  steps: [{ template: { type: 'in_app', content: 'Invoice {{invoiceId}} is paid' } }],
  ...extra,
})

describe('the generation setting', () => {
  test('a mock started with no setting answers as 2026-08 and says so in health', async () => {
    const res = await request(app(), 'GET', '/__admin/health')
    expect(res.status).toBe(200)
    expect(res.body.apiGeneration).toBe('2026-08')
  })

  test('apiGeneration 2024-10 is named by health', async () => {
    const res = await request(
      createMock({ apiGeneration: '2024-10' }).app,
      'GET',
      '/__admin/health'
    )
    expect(res.body.apiGeneration).toBe('2024-10')
  })

  test('the OpenAPI document names the generation and describes its validation body', async () => {
    const res = await request(app(), 'GET', '/__admin/openapi.json')
    expect(res.body.info['x-novu-api-generation']).toBe('2026-08')
    expect(res.body.components.schemas.ValidationError.required).toContain('errors')
    expect(res.body.paths['/v1/workflows'].post.responses['422']).toBeDefined()
  })

  test('the 2024-10 OpenAPI document describes the message-array error body', async () => {
    const res = await request(
      createMock({ apiGeneration: '2024-10' }).app,
      'GET',
      '/__admin/openapi.json'
    )
    expect(res.body.info['x-novu-api-generation']).toBe('2024-10')
    expect(res.body.components.schemas.ValidationError).toBeUndefined()
    expect(res.body.components.schemas.Error.properties.message.anyOf).toHaveLength(2)
  })

  test('a scenario key can answer in the other generation beside the default one', async () => {
    const { admin, app } = mock()
    await admin.loadScenario({
      name: 'mixed',
      fixture: 'default',
      environments: { keys: [{ apiKey: 'old-server', apiGeneration: '2024-10' }] },
    })
    const old = await request(app, 'GET', '/v1/topics?pageSize=11', { key: 'old-server' })
    const today = await request(app, 'GET', '/v1/topics?pageSize=11', { key: 'any-other' })
    expect(old.status).toBe(400)
    expect(today.status).toBe(422)
  })

  test('a scenario can choose the generation for every environment', async () => {
    const { admin, app } = mock()
    await admin.loadScenario({ name: 'old', fixture: 'default', apiGeneration: '2024-10' })
    const res = await request(app, 'GET', '/v1/topics?pageSize=11')
    expect(res.status).toBe(400)
  })
})

describe('the exception filter', () => {
  test('a request validation failure is 422 Validation Error with errors.general', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', { body: {} })
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v1/workflows',
      message: 'Validation Error',
      ctx: {},
      errors: {
        general: {
          messages: [
            'name should not be null or undefined',
            'name must be a string',
            'Notification group must be provided ',
            'notificationGroupId must be a string',
            'steps should not be null or undefined',
            'steps must be an array',
          ],
          value: 'No Value Recorded',
        },
      },
    })
  })

  test('an error thrown with a text carries error and statusCode flat and in ctx', async () => {
    const res = await request(app(), 'DELETE', '/v1/messages/transaction/no-such-tx')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      error: 'Not Found',
      statusCode: 404,
      path: '/v1/messages/transaction/no-such-tx',
      message: 'Invalid transactionId or channel',
      ctx: { error: 'Not Found', statusCode: 404 },
    })
    expect(Object.keys(res.body)).toEqual([
      'error',
      'statusCode',
      'timestamp',
      'path',
      'message',
      'ctx',
    ])
  })

  test('an error thrown bare carries only statusCode in ctx', async () => {
    const res = await request(app(), 'DELETE', '/v1/notification-groups/66fbb0a0c1f2e3d4a5b6ffff')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 404,
      path: '/v1/notification-groups/66fbb0a0c1f2e3d4a5b6ffff',
      message: 'Not Found',
      ctx: { statusCode: 404 },
    })
  })

  test('an unknown route answers Cannot METHOD path with ctx', async () => {
    const res = await request(app(), 'PATCH', '/v1/topics')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({
      message: 'Cannot PATCH /v1/topics',
      ctx: { error: 'Not Found', statusCode: 404 },
    })
  })

  test('a missing Authorization header is a 401 with ctx', async () => {
    const res = await request(app(), 'GET', '/v1/topics', { key: null })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({
      error: 'Unauthorized',
      message: 'Missing authorization header',
      ctx: { error: 'Unauthorized', statusCode: 401 },
    })
  })

  test('malformed JSON is a 400 with ctx', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', { body: '{"name":' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      ctx: { error: 'Bad Request', statusCode: 400 },
    })
  })

  test('a 500 has an errorId and no ctx', async () => {
    const res = await request(app(), 'GET', '/v1/topics?pageSize=0')
    expect(res.status).toBe(500)
    expect(res.body.errorId).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.body).not.toHaveProperty('ctx')
  })

  test('a rate-limit fault is a 429 with an empty ctx', async () => {
    const { admin, app } = mock()
    await admin.addRule({ match: { path: '/v1/topics' }, fault: { status: 429 }, times: 1 })
    const res = await request(app, 'GET', '/v1/topics')
    expect(res.status).toBe(429)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 429,
      path: '/v1/topics',
      message: 'API rate limit exceeded',
      ctx: {},
    })
  })

  test('a body over 26 MB on the workflow routes is a bare 413', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(26 * 1024 * 1024 + 1) })
    const res = await request(app(), 'POST', '/v1/workflows', { body: huge })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ message: 'Payload Too Large', ctx: { statusCode: 413 } })
  })

  test('a body between 20 and 26 MB on the workflow routes is read', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(21 * 1024 * 1024) })
    const res = await request(app(), 'POST', '/v1/workflows', { body: big })
    expect(res.status).toBe(422)
  })
})

describe('GET /v1/topics', () => {
  test('a page size over 10 is a keyed 422 from FilterTopicsCommand', async () => {
    const res = await request(app(), 'GET', '/v1/topics?pageSize=101')
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v1/topics?pageSize=101',
      message:
        'Validation failed for FilterTopicsCommand: pageSize: pageSize must not be greater than 10',
      ctx: {},
      errors: { pageSize: { messages: ['pageSize must not be greater than 10'], value: 101 } },
    })
  })

  test('words for page and pageSize list every message with a null value', async () => {
    const res = await request(app(), 'GET', '/v1/topics?page=first&pageSize=big')
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({
      page: {
        messages: ['page must not be less than 0', 'page must be an integer number'],
        value: null,
      },
      pageSize: {
        messages: [
          'pageSize must not be greater than 10',
          'pageSize must not be less than 0',
          'pageSize must be an integer number',
        ],
        value: null,
      },
    })
    expect(res.body.message).toBe(
      'Validation failed for FilterTopicsCommand: page: page must not be less than 0, page must be an integer number; pageSize: pageSize must not be greater than 10, pageSize must not be less than 0, pageSize must be an integer number'
    )
  })

  test('a repeated key is a 422 from the request pipe', async () => {
    const res = await request(app(), 'GET', '/v1/topics?key=a&key=b')
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['key must be a string'])
  })

  test('items carry createdAt and updatedAt', async () => {
    const res = await request(app(), 'GET', '/v1/topics?key=team-alpha')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      [
        '_environmentId',
        '_id',
        '_organizationId',
        'createdAt',
        'key',
        'name',
        'subscribers',
        'updatedAt',
      ].sort()
    )
  })

  test('the name filter is exact', async () => {
    const exact = await request(app(), 'GET', '/v1/topics?name=Team%20Alpha')
    const partial = await request(app(), 'GET', '/v1/topics?name=Team')
    expect(exact.body.data.map((t: { key: string }) => t.key)).toEqual(['team-alpha'])
    expect(partial.body.totalCount).toBe(0)
  })

  test('the 2024-10 generation ignores the name filter', async () => {
    const res = await request(
      createMock({ seed: 'test', apiGeneration: '2024-10' }).app,
      'GET',
      '/v1/topics?name=Team%20Alpha'
    )
    expect(res.body.totalCount).toBe(23)
  })
})

describe('POST /v1/workflows', () => {
  test('slugs the identifier as upstream does now, splitting camel case', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', {
      body: workflow({ name: 'MyWorkflow_v2' }),
    })
    expect(res.status).toBe(201)
    expect(res.body.data.triggers[0].identifier).toBe('my-workflow-v2')
  })

  test('a name that slugs to nothing gets a random 8-character identifier', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', { body: workflow({ name: '你好' }) })
    expect(res.body.data.triggers[0].identifier).toMatch(/^[0-9a-z]{8}$/)
  })

  test('a colliding identifier gets an 8-character [0-9a-z] suffix', async () => {
    const target = app()
    await request(target, 'POST', '/v1/workflows', { body: workflow() })
    const second = await request(target, 'POST', '/v1/workflows', { body: workflow() })
    expect(second.status).toBe(201)
    expect(second.body.data.triggers[0].identifier).toMatch(/^invoice-paid-[0-9a-z]{8}$/)
  })

  test('origin is novu-cloud-v1 on /v1/workflows and novu-cloud on the alias', async () => {
    const target = app()
    const v1 = await request(target, 'POST', '/v1/workflows', { body: workflow() })
    const alias = await request(target, 'POST', '/v1/notification-templates', { body: workflow() })
    expect(v1.body.data.origin).toBe('novu-cloud-v1')
    expect(alias.body.data.origin).toBe('novu-cloud')
  })

  test('the created workflow carries the newer fields and a tool preference', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', { body: workflow() })
    expect(res.body.data).toMatchObject({
      payloadSchema: { type: 'object', additionalProperties: true, properties: {} },
      validatePayload: true,
      severity: 'none',
      userPreferences: null,
      defaultPreferences: { all: { enabled: true, readOnly: false } },
      preferenceSettings: {
        in_app: true,
        sms: true,
        email: true,
        push: true,
        chat: true,
        tool: true,
      },
    })
    expect(res.body.data).not.toHaveProperty('status')
  })

  test('a name over 128 characters is a keyed 422 from the command', async () => {
    const name = 'n'.repeat(129)
    const res = await request(app(), 'POST', '/v1/workflows', { body: workflow({ name }) })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'Validation failed for CreateWorkflowCommandV0: name: name must be shorter than or equal to 128 characters'
    )
    expect(res.body.errors.name).toEqual({
      messages: ['name must be shorter than or equal to 128 characters'],
      value: name,
    })
  })

  test('repeated tags are a keyed 422', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', {
      body: workflow({ tags: ['a', 'a'] }),
    })
    expect(res.status).toBe(422)
    expect(res.body.errors.tags.messages).toEqual(["All tags's elements must be unique"])
  })

  test('a bad group id is a keyed 422 with the value sent', async () => {
    const res = await request(app(), 'POST', '/v1/workflows', {
      body: workflow({ notificationGroupId: 'nope' }),
    })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({
      notificationGroupId: {
        messages: ['notificationGroupId must be a mongodb id'],
        value: 'nope',
      },
    })
  })

  test('21 steps are refused with upstream steps-limit 400', async () => {
    const steps = Array.from({ length: 21 }, () => ({ template: { type: 'in_app', content: 'x' } }))
    const res = await request(app(), 'POST', '/v1/workflows', { body: workflow({ steps }) })
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      providedStepsCount: 21,
      maxSteps: 20,
      statusCode: 400,
      path: '/v1/workflows',
      message: 'Workflow steps limit exceeded. Maximum allowed steps is 20, but got 21 steps.',
      ctx: { providedStepsCount: 21, maxSteps: 20 },
    })
  })

  test('an environment at its workflow limit refuses the next create and stores nothing', async () => {
    const target = createMock({ seed: 'test', maxWorkflows: 9 }).app
    const before = await request(target, 'GET', '/v1/workflows?limit=100')
    expect(before.body.totalCount).toBe(8)
    expect((await request(target, 'POST', '/v1/workflows', { body: workflow() })).status).toBe(201)
    const refused = await request(target, 'POST', '/v1/workflows', { body: workflow() })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      message: 'Workflow limit exceeded. Please contact us to support more workflows.',
      currentCount: 9,
      limit: 9,
    })
    expect((await request(target, 'GET', '/v1/workflows?limit=100')).body.totalCount).toBe(9)
  })

  test('maxWorkflows 0 lifts the workflow limit', async () => {
    const target = createMock({ seed: 'test', maxWorkflows: 0 }).app
    for (let i = 0; i < 3; i++)
      await request(target, 'POST', '/v1/workflows', { body: workflow({ name: `w ${i}` }) })
    expect((await request(target, 'GET', '/v1/workflows?limit=100')).body.totalCount).toBe(11)
  })

  test('a template command failure is a keyed 422 from CreateMessageTemplateCommand', async () => {
    const steps = [{ template: { type: 'fax', content: 'x', feedId: 5 } }]
    const res = await request(app(), 'POST', '/v1/workflows', { body: workflow({ steps }) })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['type', 'feedId'])
    expect(res.body.message).toMatch(/^Validation failed for CreateMessageTemplateCommand: type: /)
  })
})

describe('workflow status and lookup', () => {
  test('a status change writes status ACTIVE or INACTIVE', async () => {
    const target = app()
    const on = await request(target, 'PUT', `/v1/workflows/${ORDER_SHIPPED_ID}/status`, {
      body: { active: true },
    })
    const off = await request(target, 'PUT', `/v1/workflows/${ORDER_SHIPPED_ID}/status`, {
      body: { active: false },
    })
    expect(on.status).toBe(200)
    expect(on.body.data).toMatchObject({ active: true, draft: false, status: 'ACTIVE' })
    expect(off.body.data).toMatchObject({ active: false, draft: true, status: 'INACTIVE' })
  })

  test('a bad workflow id on status is a keyed 422 for templateId', async () => {
    const res = await request(app(), 'PUT', '/v1/workflows/nope/status', { body: { active: true } })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({
      message:
        'Validation failed for ChangeTemplateActiveStatusCommand: templateId: templateId must be a mongodb id',
      errors: { templateId: { messages: ['templateId must be a mongodb id'], value: 'nope' } },
    })
  })

  test('asking for the same status keeps the old text', async () => {
    const res = await request(app(), 'PUT', `/v1/workflows/${ORDER_SHIPPED_ID}/status`, {
      body: { active: false },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('You must provide a different status from the current status')
  })

  test('an unknown workflow is 404 Workflow cannot be found with its id flat and in ctx', async () => {
    const res = await request(app(), 'GET', '/v1/workflows/66fbb0a0c1f2e3d4a5b6ffff')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      workflowId: '66fbb0a0c1f2e3d4a5b6ffff',
      statusCode: 404,
      path: '/v1/workflows/66fbb0a0c1f2e3d4a5b6ffff',
      message: 'Workflow cannot be found',
      ctx: { workflowId: '66fbb0a0c1f2e3d4a5b6ffff' },
    })
  })
})

describe('messages', () => {
  test('channel=tool is accepted on delete by transaction', async () => {
    const res = await request(
      app(),
      'DELETE',
      '/v1/messages/transaction/tx-order-1001?channel=tool'
    )
    expect(res.status).toBe(204)
  })

  test('an unknown channel lists the six channels in a 422', async () => {
    const res = await request(app(), 'DELETE', '/v1/messages/transaction/tx-order-1001?channel=fax')
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'channel must be one of the following values: in_app, email, sms, chat, push, tool',
    ])
  })

  test('an unknown subscriber is 404 with the newer text', async () => {
    const res = await request(app(), 'GET', '/v1/messages?subscriberId=nobody')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe("Subscriber 'nobody' was not found")
  })

  test('each message populates the subscriber fields @novu/api requires', async () => {
    const res = await request(app(), 'GET', '/v1/messages?transactionId=tx-order-1001')
    const [message] = res.body.data
    expect(message.subscriber).toMatchObject({
      _id: expect.stringMatching(OBJECT_ID),
      subscriberId: 'user-1042',
      _organizationId: expect.stringMatching(OBJECT_ID),
      _environmentId: expect.stringMatching(OBJECT_ID),
      deleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(message.cta).toEqual({ action: { buttons: [] } })
  })

  test('deleted messages are gone from the exported state, not flagged', async () => {
    const { app, admin } = mock()
    await request(app, 'DELETE', '/v1/messages/transaction/tx-order-1001')
    const state = await admin.exportState('test-key')
    const left = (state.messages as { transactionId: string }[]).filter(
      (m) => m.transactionId === 'tx-order-1001'
    )
    expect(left).toEqual([])
  })
})

describe.each(['2026-08', '2024-10'] as const)('workflow lookup in %s', (apiGeneration) => {
  const withVariant = workflow({
    name: 'Variant Flow',
    steps: [
      {
        template: { type: 'in_app', content: 'a' },
        variants: [
          {
            filters: [{ children: [{ field: 'x', value: '1', operator: 'EQUAL', on: 'payload' }] }],
            template: { type: 'in_app', content: 'b' },
          },
        ],
      },
    ],
  })

  test('by trigger identifier populates step templates but not variant templates', async () => {
    const target = createMock({ seed: 'test', apiGeneration }).app
    await request(target, 'POST', '/v1/workflows', { body: withVariant })
    const res = await request(target, 'GET', '/v1/workflows/variant-flow')
    expect(res.status).toBe(200)
    expect(res.body.data.steps[0].template).toMatchObject({ content: 'a' })
    expect(res.body.data.steps[0].variants[0]).not.toHaveProperty('template')
    expect(res.body.data.steps[0].variants[0]._templateId).toMatch(OBJECT_ID)
  })

  test('by id populates variant templates too', async () => {
    const target = createMock({ seed: 'test', apiGeneration }).app
    const created = await request(target, 'POST', '/v1/workflows', { body: withVariant })
    const res = await request(target, 'GET', `/v1/workflows/${created.body.data._id}`)
    expect(res.body.data.steps[0].variants[0].template).toMatchObject({ content: 'b' })
  })
})

test('chaos rules apply to /v2 paths too', async () => {
  const { admin, app } = mock()
  await admin.addRule({ match: { path: '/v2/*' }, fault: { status: 503 }, times: 1 })
  const res = await request(app, 'GET', '/v2/anything')
  expect(res.status).toBe(503)
  expect(res.body).toMatchObject({ message: 'Service Unavailable', ctx: { statusCode: 503 } })
})
