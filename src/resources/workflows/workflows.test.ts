import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import {
  ISO_DATE,
  OBJECT_ID,
  request,
  withoutTimestamp,
  type Requestable,
} from '../../../test/helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'
const BILLING = '66fbb0a0c1f2e3d4a5b60002'
const WELCOME_EMAIL = '66fbb0a0c1f2e3d4a5b61001'
const ORDER_SHIPPED = '66fbb0a0c1f2e3d4a5b61002'
const UNKNOWN = '6718c1d0e1a2b3c4d5e6f900'
const PREFIXES = ['/v1/workflows', '/v1/notification-templates']
const SEEDED_WORKFLOWS = 8
const SHORTID = /^[A-Za-z0-9_-]{7,14}$/

const mock = () => createMock({ apiGeneration: '2024-10', seed: 'test' }).app

type Obj = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const inApp = (content = 'Hello') => ({ name: 'In-App', template: { type: 'in_app', content } })
const workflowBody = (extra: Obj = {}) => ({
  name: 'Test',
  notificationGroupId: GENERAL,
  steps: [inApp()],
  ...extra,
})
const create = (app: Requestable, body: unknown, prefix = '/v1/workflows') =>
  request(app, 'POST', prefix, { body })

/** The §8.3 request of the facts file. */
const ORDER_SHIPPED_REQUEST = {
  name: 'Order Shipped',
  notificationGroupId: BILLING,
  description: 'Sent when a parcel leaves the warehouse',
  tags: ['orders'],
  steps: [
    {
      name: 'In-App',
      uuid: '5d0f3c1e-8a4b-4e7d-9a55-2f1e0c9b7a11',
      template: {
        type: 'in_app',
        content: 'Hi {{firstName}}, order {{orderId}} is on its way',
        cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
      },
    },
    {
      name: 'Email',
      template: {
        type: 'email',
        subject: 'Order {{orderId}} shipped',
        content: [{ type: 'text', content: 'Track it at {{trackingUrl}}' }],
      },
    },
  ],
}

const badRequest = (path: string, message: string | string[]) => ({
  statusCode: 400,
  path,
  message,
  error: 'Bad Request',
})

// POST /v1/workflows (and its /v1/notification-templates alias)

test.each(PREFIXES)('creates a workflow with 201 and the data envelope at %s', async (prefix) => {
  const res = await create(mock(), workflowBody(), prefix)
  expect(res.status).toBe(201)
  expect(Object.keys(res.body)).toEqual(['data'])
  const workflow = res.body.data
  expect(workflow).toMatchObject({
    _id: expect.stringMatching(OBJECT_ID),
    id: workflow._id,
    name: 'Test',
    _notificationGroupId: GENERAL,
    type: 'REGULAR',
    origin: 'novu-cloud',
    isBlueprint: false,
    deleted: false,
    __v: 0,
    _environmentId: expect.stringMatching(OBJECT_ID),
    _organizationId: expect.stringMatching(OBJECT_ID),
    _creatorId: expect.stringMatching(OBJECT_ID),
    createdAt: expect.stringMatching(ISO_DATE),
    updatedAt: workflow.createdAt,
  })
  expect(workflow).not.toHaveProperty('notificationGroup')
  expect(res.headers.get('location')).toBeNull()
})

test('answers the §8.3 example with exactly the upstream fields', async () => {
  const res = await create(mock(), ORDER_SHIPPED_REQUEST)
  expect(res.status).toBe(201)
  const workflow = res.body.data
  expect(Object.keys(workflow).sort()).toEqual(
    [
      '_id',
      'name',
      'description',
      'active',
      'type',
      'draft',
      'critical',
      'isBlueprint',
      '_notificationGroupId',
      'tags',
      'triggers',
      'steps',
      'preferenceSettings',
      'origin',
      '_environmentId',
      '_organizationId',
      '_creatorId',
      'deleted',
      'createdAt',
      'updatedAt',
      '__v',
      'id',
    ].sort()
  )
  expect(workflow).toMatchObject({
    name: 'Order Shipped',
    description: 'Sent when a parcel leaves the warehouse',
    active: false,
    draft: true,
    critical: false,
    _notificationGroupId: BILLING,
    tags: ['orders'],
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  })
  const { id: _stepId, template, ...step } = workflow.steps[0]
  const { id: _templateId, ...templateDoc } = template
  expect(step).toEqual({
    _id: templateDoc._id,
    _templateId: templateDoc._id,
    _parentId: null,
    active: true,
    shouldStopOnFail: false,
    uuid: '5d0f3c1e-8a4b-4e7d-9a55-2f1e0c9b7a11',
    name: 'In-App',
    type: 'REGULAR',
    filters: [],
    metadata: { timed: { weekDays: [], monthDays: [] } },
    variants: [],
  })
  expect(templateDoc).toEqual({
    _id: expect.stringMatching(OBJECT_ID),
    type: 'in_app',
    active: true,
    variables: [],
    content: 'Hi {{firstName}}, order {{orderId}} is on its way',
    cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
    _feedId: null,
    _layoutId: null,
    _environmentId: workflow._environmentId,
    _organizationId: workflow._organizationId,
    _creatorId: workflow._creatorId,
    deleted: false,
    createdAt: expect.stringMatching(ISO_DATE),
    updatedAt: expect.stringMatching(ISO_DATE),
    __v: 0,
  })
})

test('gives the §8.3 example its trigger variables and the email subscriber variable', async () => {
  const res = await create(mock(), ORDER_SHIPPED_REQUEST)
  expect(res.status).toBe(201)
  const [trigger, ...others] = res.body.data.triggers
  expect(others).toEqual([])
  expect(trigger).toEqual({
    type: 'event',
    identifier: expect.stringMatching(/^order-shipped-/),
    variables: [
      { name: 'firstName', type: 'String', _id: expect.stringMatching(OBJECT_ID) },
      { name: 'orderId', type: 'String', _id: expect.stringMatching(OBJECT_ID) },
      { name: 'trackingUrl', type: 'String', _id: expect.stringMatching(OBJECT_ID) },
    ],
    reservedVariables: [],
    subscriberVariables: [{ name: 'email', _id: expect.stringMatching(OBJECT_ID) }],
    _id: expect.stringMatching(OBJECT_ID),
  })
})

test('gives an email step the environment default layout and other steps none', async () => {
  const res = await create(mock(), ORDER_SHIPPED_REQUEST)
  expect(res.status).toBe(201)
  const [inAppStep, emailStep] = res.body.data.steps
  expect(inAppStep.template._layoutId).toBeNull()
  expect(emailStep.template._layoutId).toMatch(OBJECT_ID)
  expect(emailStep.template).toMatchObject({
    type: 'email',
    subject: 'Order {{orderId}} shipped',
    content: [{ type: 'text', content: 'Track it at {{trackingUrl}}' }],
  })
})

test.each(PREFIXES)(
  'answers 400 with the six required-field messages to {} at %s',
  async (prefix) => {
    const res = await create(mock(), {}, prefix)
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual(
      badRequest(prefix, [
        'name should not be null or undefined',
        'name must be a string',
        'Notification group must be provided ',
        'notificationGroupId must be a string',
        'steps should not be null or undefined',
        'steps must be an array',
      ])
    )
  }
)

test.each([
  { field: 'name', value: 5, message: 'name must be a string' },
  { field: 'notificationGroupId', value: 5, message: 'notificationGroupId must be a string' },
  { field: 'tags', value: 'orders', message: 'tags must be an array' },
  { field: 'active', value: 'true', message: 'active must be a boolean value' },
  { field: 'draft', value: 'no', message: 'draft must be a boolean value' },
  { field: 'critical', value: 1, message: 'critical must be a boolean value' },
  { field: 'blueprintId', value: 5, message: 'blueprintId must be a string' },
])('answers 400 "$message" for a wrong $field', async ({ field, value, message }) => {
  const res = await create(mock(), workflowBody({ [field]: value }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(badRequest('/v1/workflows', [message]))
})

test.each([
  {
    steps: null,
    message: [
      'steps should not be null or undefined',
      'steps must be an array',
      'nested property steps must be either object or array',
    ],
  },
  {
    steps: 'x',
    message: ['steps must be an array', 'nested property steps must be either object or array'],
  },
])('answers 400 to steps: $steps', async ({ steps, message }) => {
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(badRequest('/v1/workflows', message))
})

test('answers 400 with one nested-property message to a step that is not an object', async () => {
  const res = await create(mock(), workflowBody({ steps: ['x'] }))
  expect(res.status).toBe(400)
  expect(res.body.error).toBe('Bad Request')
  expect(res.body.message).toHaveLength(1)
  expect(res.body.message[0]).toMatch(/nested property .* must be either object or array$/)
})

test('answers 400 to a description over 1000 characters and accepts exactly 1000', async () => {
  const app = mock()
  const long = await create(app, workflowBody({ description: 'x'.repeat(1001) }))
  expect(long.status).toBe(400)
  expect(withoutTimestamp(long.body)).toEqual(
    badRequest('/v1/workflows', ['description must be shorter than or equal to 1000 characters'])
  )
  const exact = await create(app, workflowBody({ description: 'x'.repeat(1000) }))
  expect(exact.status).toBe(201)
})

test.each(['general', '66fbb0a0c1f2e3d4a5b6000', '66fbb0a0c1f2e3d4a5b6000z', ''])(
  'answers 400 "notificationGroupId must be a mongodb id" for %j',
  async (notificationGroupId) => {
    const res = await create(mock(), workflowBody({ notificationGroupId }))
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual(
      badRequest('/v1/workflows', ['notificationGroupId must be a mongodb id'])
    )
  }
)

test('accepts a group id that looks like an ObjectId but names no group', async () => {
  const res = await create(mock(), workflowBody({ notificationGroupId: UNKNOWN }))
  expect(res.status).toBe(201)
  expect(res.body.data._notificationGroupId).toBe(UNKNOWN)
})

test('accepts an empty steps array', async () => {
  const res = await create(mock(), workflowBody({ steps: [], tags: ['x'], description: 'd' }))
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({ steps: [], name: 'Test', tags: ['x'], description: 'd' })
  expect(res.body.data.triggers[0]).toMatchObject({
    variables: [],
    reservedVariables: [],
    subscriberVariables: [],
  })
})

test('defaults to inactive, draft, not critical, no tags and every channel preferred', async () => {
  const res = await create(mock(), workflowBody())
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({
    active: false,
    draft: true,
    critical: false,
    tags: [],
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  })
  expect(res.body.data).not.toHaveProperty('description')
  expect(res.body.data).not.toHaveProperty('data')
  expect(res.body.data).not.toHaveProperty('blueprintId')
})

test.each([
  { sent: { draft: false }, active: false, draft: true },
  { sent: { active: false, draft: false }, active: false, draft: true },
  { sent: { active: true }, active: true, draft: false },
  { sent: { active: true, draft: true }, active: true, draft: false },
])('derives draft from active alone for $sent', async ({ sent, active, draft }) => {
  const res = await create(mock(), workflowBody(sent))
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({ active, draft })
})

test('fills the missing channels of a partial preferenceSettings with true', async () => {
  const res = await create(
    mock(),
    workflowBody({ preferenceSettings: { email: false, chat: false } })
  )
  expect(res.status).toBe(201)
  expect(res.body.data.preferenceSettings).toEqual({
    email: false,
    sms: true,
    in_app: true,
    chat: false,
    push: true,
  })
})

test('keeps critical, tags, description and custom data as sent, still wrapped in data', async () => {
  const data = { data: { nested: [1, 2] }, owner: 'billing' }
  const res = await create(
    mock(),
    workflowBody({ critical: true, tags: ['a', 'b'], description: 'why', data })
  )
  expect(res.status).toBe(201)
  expect(Object.keys(res.body)).toEqual(['data'])
  expect(res.body.data).toMatchObject({
    critical: true,
    tags: ['a', 'b'],
    description: 'why',
    data,
  })
})

/** Custom data nesting `levels` deep: arrays in objects, no other bracket in its text. */
const nestedData = (levels: number) => {
  let value: unknown = 'leaf'
  for (let i = 1; i < levels; i++) value = i % 2 ? [value] : { inner: value }
  return { inner: value }
}

// The document holds the data one level down: 99 levels of data make a document of 100.
test.each([
  [99, 201],
  [100, 500],
])(
  'stores custom data nesting %i levels deep with %i, as MongoDB takes 100',
  async (levels, status) => {
    const res = await create(mock(), workflowBody({ data: nestedData(levels) }))
    expect(res.status).toBe(status)
    if (status === 500) expect(res.body).toMatchObject({ statusCode: 500, path: '/v1/workflows' })
  }
)

test('ignores unknown body fields, including a sent _id and isBlueprint', async () => {
  const sentId = '6718c1d0e1a2b3c4d5e6f999'
  const res = await create(
    mock(),
    workflowBody({
      _id: sentId,
      isBlueprint: true,
      unknown: 'x',
      createdAt: '2020-01-01T00:00:00.000Z',
    })
  )
  expect(res.status).toBe(201)
  expect(res.body.data._id).not.toBe(sentId)
  expect(res.body.data.isBlueprint).toBe(false)
  expect(res.body.data).not.toHaveProperty('unknown')
  expect(res.body.data.createdAt).not.toBe('2020-01-01T00:00:00.000Z')
})

test.each([
  { name: 'Test', identifier: 'test' },
  { name: 'My Workflow!', identifier: 'my-workflow' },
  { name: 'Order  Shipped - v2', identifier: 'order-shipped-v2' },
  { name: 'a_b', identifier: 'ab' },
  { name: 'Tom & Jerry', identifier: 'tom-and-jerry' },
  { name: 'Ünïcödé', identifier: 'unicode' },
  { name: '$5 off 50%', identifier: 'dollar5-off-50percent' },
  { name: '你好', identifier: '' },
  { name: '  padded  name  ', identifier: 'padded-name' },
])('slugifies the name $name into the identifier $identifier', async ({ name, identifier }) => {
  const res = await create(mock(), workflowBody({ name }))
  expect(res.status).toBe(201)
  expect(res.body.data.name).toBe(name)
  expect(res.body.data.triggers[0]).toMatchObject({ type: 'event', identifier })
})

test('appends a shortid to a taken identifier and never answers 409', async () => {
  const app = mock()
  const first = await create(app, workflowBody({ name: 'test' }))
  const second = await create(app, workflowBody({ name: 'test' }))
  const third = await create(app, workflowBody({ name: 'Test' }))
  expect([first.status, second.status, third.status]).toEqual([201, 201, 201])
  expect(first.body.data.triggers[0].identifier).toBe('test')
  const [, secondSuffix] = second.body.data.triggers[0].identifier.split('test-')
  const [, thirdSuffix] = third.body.data.triggers[0].identifier.split('test-')
  expect(second.body.data.triggers[0].identifier.startsWith('test-')).toBe(true)
  expect(secondSuffix).toMatch(SHORTID)
  expect(thirdSuffix).toMatch(SHORTID)
  expect(thirdSuffix).not.toBe(secondSuffix)
})

test('appends a shortid when a seeded workflow holds the identifier', async () => {
  const res = await create(mock(), workflowBody({ name: 'Welcome Email' }))
  expect(res.status).toBe(201)
  expect(res.body.data.triggers[0].identifier).toMatch(/^welcome-email-[A-Za-z0-9_-]{7,14}$/)
})

test('uses the message template id as step _id and _templateId, and chains _parentId', async () => {
  const steps = [
    inApp('one'),
    { name: 'SMS', template: { type: 'sms', content: 'two' } },
    inApp('three'),
  ]
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(201)
  const built = res.body.data.steps
  expect(built).toHaveLength(3)
  for (const step of built) {
    expect(step._id).toMatch(OBJECT_ID)
    expect(step._templateId).toBe(step._id)
    expect(step.template._id).toBe(step._id)
  }
  expect(built.map((s: Obj) => s._parentId)).toEqual([null, built[0]._id, built[1]._id])
  expect(new Set(built.map((s: Obj) => s._id)).size).toBe(3)
})

test('copies a step uuid and never generates one', async () => {
  const steps = [{ ...inApp(), uuid: 'client-made-uuid' }, inApp()]
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].uuid).toBe('client-made-uuid')
  expect(res.body.data.steps[1]).not.toHaveProperty('uuid')
})

test('gives every step the default timed metadata and keeps sent metadata', async () => {
  const steps = [
    inApp(),
    {
      name: 'Digest',
      template: { type: 'digest' },
      metadata: { amount: 5, unit: 'minutes', type: 'regular' },
    },
  ]
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].metadata).toEqual({ timed: { weekDays: [], monthDays: [] } })
  expect(res.body.data.steps[1].metadata).toEqual({
    amount: 5,
    unit: 'minutes',
    type: 'regular',
    timed: { weekDays: [], monthDays: [] },
  })
})

test('keeps a step active flag and name, with the step defaults otherwise', async () => {
  const steps = [
    { ...inApp('Test Template {{name}} {{lastName}}'), active: false, shouldStopOnFail: true },
  ]
  const res = await create(mock(), workflowBody({ name: 'test', steps }))
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({ active: false })
  expect(res.body.data.triggers).toHaveLength(1)
  expect(res.body.data.triggers[0]).toMatchObject({ type: 'event', identifier: 'test' })
  expect(res.body.data.steps[0]).toMatchObject({
    name: 'In-App',
    active: false,
    shouldStopOnFail: true,
    type: 'REGULAR',
    variants: [],
    filters: [],
  })
  expect(res.body.data.steps[0].template.active).toBe(true)
})

test('gives every filter and filter child an _id and keeps the rest as sent', async () => {
  const child = { on: 'subscriber', field: 'firstName', value: 'Ada', operator: 'EQUAL' }
  const steps = [
    { ...inApp(), filters: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [child] }] },
  ]
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(201)
  const [filter] = res.body.data.steps[0].filters
  expect(filter).toMatchObject({
    isNegated: false,
    type: 'GROUP',
    value: 'AND',
    _id: expect.stringMatching(OBJECT_ID),
  })
  expect(filter.children).toEqual([{ ...child, _id: expect.stringMatching(OBJECT_ID) }])
})

test('copies the template fields of an email step', async () => {
  const template = {
    type: 'email',
    name: 'Receipt',
    subject: 'Your receipt',
    preheader: 'Thanks',
    senderName: 'test',
    content: [{ type: 'text', content: 'Hello' }],
  }
  const res = await create(mock(), workflowBody({ steps: [{ name: 'Email', template }] }))
  expect(res.status).toBe(201)
  expect(res.body.data._notificationGroupId).toBe(GENERAL)
  expect(res.body.data.steps[0].template).toMatchObject({
    ...template,
    active: true,
    _feedId: null,
  })
})

test('keeps a variant with its own template and conditions', async () => {
  const variant = {
    name: 'Pro',
    active: true,
    filters: [
      {
        type: 'GROUP',
        value: 'AND',
        children: [{ on: 'tenant', field: 'plan', value: 'pro', operator: 'EQUAL' }],
      },
    ],
    template: { type: 'in_app', content: 'Pro hello' },
  }
  const res = await create(mock(), workflowBody({ steps: [{ ...inApp(), variants: [variant] }] }))
  expect(res.status).toBe(201)
  const [built] = res.body.data.steps[0].variants
  expect(built.template).toMatchObject({ type: 'in_app', content: 'Pro hello', active: true })
  expect(built._templateId).toBe(built.template._id)
})

test('answers 400 to a variant without conditions', async () => {
  const variant = { name: 'Pro', template: { type: 'in_app', content: 'x' } }
  const res = await create(mock(), workflowBody({ steps: [{ ...inApp(), variants: [variant] }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest('/v1/workflows', 'Variant conditions are required, variant name Pro id undefined')
  )
})

test('answers 400 to a variant without a template', async () => {
  const variant = {
    name: 'Pro',
    filters: [{ children: [{ on: 'payload', field: 'x', value: '1' }] }],
  }
  const res = await create(mock(), workflowBody({ steps: [{ ...inApp(), variants: [variant] }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest('/v1/workflows', 'Unexpected error: variants message template is missing')
  )
})

test('answers 400 "Unexpected error: message template is missing" to a step without a template', async () => {
  const res = await create(mock(), workflowBody({ steps: [inApp(), { name: 'Empty' }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest('/v1/workflows', 'Unexpected error: message template is missing')
  )
})

test.each([
  {
    template: { content: 'x' },
    message: [
      'type should not be null or undefined',
      'type must be one of the following values: in_app, email, sms, chat, push, digest, trigger, delay, custom',
    ],
  },
  {
    template: { type: 'fax', content: 'x' },
    message: [
      'type must be one of the following values: in_app, email, sms, chat, push, digest, trigger, delay, custom',
    ],
  },
])('answers 400 to the step template $template', async ({ template, message }) => {
  const res = await create(mock(), workflowBody({ steps: [{ name: 'Bad', template }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(badRequest('/v1/workflows', message))
})

test('answers 400 "Please provide a valid CTA action" to an empty cta action', async () => {
  const template = {
    type: 'in_app',
    content: 'x',
    cta: { type: 'redirect', action: '', data: { url: '/x' } },
  }
  const res = await create(mock(), workflowBody({ steps: [{ name: 'In-App', template }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest('/v1/workflows', 'Please provide a valid CTA action')
  )
})

test('stores nothing when a step fails', async () => {
  const app = mock()
  const res = await create(
    app,
    workflowBody({ name: 'Broken', steps: [inApp(), { name: 'Empty' }] })
  )
  expect(res.status).toBe(400)
  const list = await request(app, 'GET', '/v1/workflows?query=broken')
  expect(list.body.totalCount).toBe(0)
})

test.each(PREFIXES)(
  'answers 401 to a Production key before reading the body at %s',
  async (prefix) => {
    const res = await request(mock(), 'POST', prefix, { key: 'production-key', body: {} })
    expect(res.status).toBe(401)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 401,
      path: prefix,
      message: 'This action is only allowed in Development environment',
      error: 'Unauthorized',
    })
  }
)

test.each([
  { text: '{"name":}', message: `Unexpected token '}', "{"name":}" is not valid JSON` },
  { text: '{name}', message: "Expected property name or '}' in JSON at position 1" },
])(
  'answers 400 with the JSON.parse message to the malformed body $text',
  async ({ text, message }) => {
    const res = await request(mock(), 'POST', '/v1/workflows', { body: text })
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual(badRequest('/v1/workflows', message))
  }
)

// GET /v1/workflows

test('lists workflows in the upstream envelope with page 0 and pageSize 10 by default', async () => {
  const res = await request(mock(), 'GET', '/v1/workflows')
  expect(res.status).toBe(200)
  expect(Object.keys(res.body)).toEqual(['page', 'data', 'totalCount', 'pageSize'])
  expect(res.body).toMatchObject({ page: 0, totalCount: SEEDED_WORKFLOWS, pageSize: 10 })
  expect(res.body.data).toHaveLength(SEEDED_WORKFLOWS)
})

test('lists workflows newest first, the oldest seeded one last', async () => {
  const res = await request(mock(), 'GET', '/v1/workflows?limit=100')
  expect(res.status).toBe(200)
  const times = res.body.data.map((w: Obj) => w.createdAt)
  expect(times).toEqual([...times].sort().reverse())
  expect(res.body.data.slice(-2).map((w: Obj) => w._id)).toEqual([ORDER_SHIPPED, WELCOME_EMAIL])
})

test('lists a created workflow first', async () => {
  const app = mock()
  const created = await create(app, workflowBody({ name: 'Newest' }))
  const res = await request(app, 'GET', '/v1/workflows')
  expect(res.body.totalCount).toBe(SEEDED_WORKFLOWS + 1)
  expect(res.body.data[0]._id).toBe(created.body.data._id)
})

test('pages with page and limit', async () => {
  const app = mock()
  const all = await request(app, 'GET', '/v1/workflows?limit=100')
  const pages = await Promise.all(
    [0, 1, 2].map((page) => request(app, 'GET', `/v1/workflows?page=${page}&limit=3`))
  )
  expect(pages.map((p) => p.body.data.length)).toEqual([3, 3, 2])
  expect(pages.flatMap((p) => p.body.data.map((w: Obj) => w._id))).toEqual(
    all.body.data.map((w: Obj) => w._id)
  )
  expect(pages[2]!.body).toMatchObject({ page: 2, pageSize: 3, totalCount: SEEDED_WORKFLOWS })
})

test.each([
  { query: '?limit=101', message: ['limit must not be greater than 100'] },
  { query: '?limit=0', message: ['limit must not be less than 1'] },
  { query: '?limit=1.5', message: ['limit must be an integer number'] },
  { query: '?page=1.5', message: ['page must be an integer number'] },
])('answers 400 to $query', async ({ query, message }) => {
  const res = await request(mock(), 'GET', `/v1/workflows${query}`)
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(badRequest(`/v1/workflows${query}`, message))
})

test('accepts a limit of 100', async () => {
  const res = await request(mock(), 'GET', '/v1/workflows?limit=100')
  expect(res.status).toBe(200)
  expect(res.body.pageSize).toBe(100)
})

test.each([
  { query: 'welcome', ids: [WELCOME_EMAIL] },
  { query: 'WELCOME EMAIL', ids: [WELCOME_EMAIL] },
  { query: 'order-shipped', ids: [ORDER_SHIPPED] },
  { query: '.*', ids: [] },
])('filters the list by name or identifier with query=$query', async ({ query, ids }) => {
  const res = await request(mock(), 'GET', `/v1/workflows?query=${encodeURIComponent(query)}`)
  expect(res.status).toBe(200)
  expect(res.body.totalCount).toBe(ids.length)
  expect(res.body.data.map((w: Obj) => w._id)).toEqual(ids)
})

test('populates notificationGroup and reduces step templates to _id and type in the list', async () => {
  const res = await request(mock(), 'GET', '/v1/workflows?query=welcome-email')
  expect(res.status).toBe(200)
  const [workflow] = res.body.data
  expect(workflow).not.toHaveProperty('id')
  expect(workflow._notificationGroupId).toBe(GENERAL)
  expect(workflow.notificationGroup).toEqual({
    _id: GENERAL,
    name: 'General',
    _environmentId: workflow._environmentId,
    _organizationId: workflow._organizationId,
    createdAt: expect.stringMatching(ISO_DATE),
    updatedAt: expect.stringMatching(ISO_DATE),
    __v: 0,
  })
  expect(workflow.steps.map((s: Obj) => s.template)).toEqual([
    { _id: workflow.steps[0]._id, type: 'in_app' },
    { _id: workflow.steps[1]._id, type: 'email' },
  ])
  for (const step of workflow.steps) {
    expect(step).not.toHaveProperty('id')
    expect(step).not.toHaveProperty('variants')
  }
  expect(workflow.workflowIntegrationStatus).toMatchObject({
    hasActiveIntegrations: expect.any(Boolean),
    channels: expect.any(Object),
  })
})

test('serves the list at /v1/notification-templates too', async () => {
  const app = mock()
  const a = await request(app, 'GET', '/v1/workflows?limit=100')
  const b = await request(app, 'GET', '/v1/notification-templates?limit=100')
  expect(b.status).toBe(200)
  expect(b.text).toBe(a.text)
})

// GET /v1/workflows/:workflowId

test.each([WELCOME_EMAIL, 'welcome-email'])(
  'gets the Welcome Email workflow by %s',
  async (idOrIdentifier) => {
    const res = await request(mock(), 'GET', `/v1/workflows/${idOrIdentifier}`)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['data'])
    const workflow = res.body.data
    expect(workflow).toMatchObject({
      _id: WELCOME_EMAIL,
      id: WELCOME_EMAIL,
      name: 'Welcome Email',
      active: true,
      draft: false,
      _notificationGroupId: GENERAL,
    })
    expect(workflow.triggers[0].identifier).toBe('welcome-email')
    expect(workflow).not.toHaveProperty('notificationGroup')
    expect(workflow).not.toHaveProperty('workflowIntegrationStatus')
    expect(workflow.steps[1].template).toMatchObject({
      _id: workflow.steps[1]._id,
      type: 'email',
      subject: 'Welcome to {{productName}}',
      deleted: false,
      __v: 0,
    })
  }
)

test('gets a workflow at /v1/notification-templates/:id too', async () => {
  const res = await request(mock(), 'GET', `/v1/notification-templates/${ORDER_SHIPPED}`)
  expect(res.status).toBe(200)
  expect(res.body.data._id).toBe(ORDER_SHIPPED)
})

test.each([UNKNOWN, 'no-such-workflow'])(
  'answers 404 "Template with id %s not found"',
  async (id) => {
    const res = await request(mock(), 'GET', `/v1/workflows/${id}`)
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 404,
      path: `/v1/workflows/${id}`,
      message: `Template with id ${id} not found`,
      error: 'Not Found',
    })
  }
)

test('gets a created workflow by its identifier', async () => {
  const app = mock()
  const created = await create(app, workflowBody({ name: 'Fresh One' }))
  const res = await request(app, 'GET', '/v1/workflows/fresh-one')
  expect(res.status).toBe(200)
  expect(res.body.data._id).toBe(created.body.data._id)
})

// PUT /v1/workflows/:workflowId/status

const setStatus = (
  app: Requestable,
  id: string,
  body: unknown,
  prefix = '/v1/workflows',
  key?: string
) => request(app, 'PUT', `${prefix}/${id}/status`, { body, ...(key ? { key } : {}) })

test.each(PREFIXES)(
  'activates a workflow, flips draft and moves updatedAt at %s',
  async (prefix) => {
    const app = mock()
    const before = await request(app, 'GET', `/v1/workflows/${ORDER_SHIPPED}`)
    const res = await setStatus(app, ORDER_SHIPPED, { active: true }, prefix)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['data'])
    expect(res.body.data).toMatchObject({
      _id: ORDER_SHIPPED,
      id: ORDER_SHIPPED,
      active: true,
      draft: false,
    })
    expect(res.body.data.updatedAt).toMatch(ISO_DATE)
    expect(res.body.data.updatedAt > before.body.data.updatedAt).toBe(true)
    expect(res.body.data.createdAt).toBe(before.body.data.createdAt)
    expect(res.body.data.steps[0].template).toMatchObject({
      type: 'in_app',
      _id: res.body.data.steps[0]._id,
    })
  }
)

test('deactivates an active workflow and sets it back to draft', async () => {
  const res = await setStatus(mock(), WELCOME_EMAIL, { active: false })
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ active: false, draft: true })
})

test('keeps the new status for later reads', async () => {
  const app = mock()
  await setStatus(app, ORDER_SHIPPED, { active: true })
  const res = await request(app, 'GET', `/v1/workflows/${ORDER_SHIPPED}`)
  expect(res.body.data).toMatchObject({ active: true, draft: false })
})

test('toggles a created workflow on and then off', async () => {
  const app = mock()
  const created = await create(app, workflowBody())
  const on = await setStatus(app, created.body.data._id, { active: true })
  const off = await setStatus(app, created.body.data._id, { active: false })
  expect([on.status, off.status]).toEqual([200, 200])
  expect(off.body.data).toMatchObject({ active: false, draft: true })
})

test.each([
  {
    body: {},
    message: ['active should not be null or undefined', 'active must be a boolean value'],
  },
  { body: { active: 'true' }, message: ['active must be a boolean value'] },
  { body: { active: 1 }, message: ['active must be a boolean value'] },
])('answers 400 to the status body $body', async ({ body, message }) => {
  const res = await setStatus(mock(), ORDER_SHIPPED, body)
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest(`/v1/workflows/${ORDER_SHIPPED}/status`, message)
  )
})

test.each(['abc', 'welcome-email'])(
  'answers 400 "templateId must be a mongodb id" for the id %s',
  async (id) => {
    const res = await setStatus(mock(), id, { active: true })
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual(
      badRequest(`/v1/workflows/${id}/status`, ['templateId must be a mongodb id'])
    )
  }
)

test('validates the body before the id', async () => {
  const res = await setStatus(mock(), 'abc', {})
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual([
    'active should not be null or undefined',
    'active must be a boolean value',
  ])
})

test('answers 404 "Template with id X not found" for an unknown workflow', async () => {
  const res = await setStatus(mock(), UNKNOWN, { active: true })
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: `/v1/workflows/${UNKNOWN}/status`,
    message: `Template with id ${UNKNOWN} not found`,
    error: 'Not Found',
  })
})

test.each([
  { id: WELCOME_EMAIL, active: true },
  { id: ORDER_SHIPPED, active: false },
])('answers 400 when $id already has active=$active', async ({ id, active }) => {
  const res = await setStatus(mock(), id, { active })
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(
    badRequest(
      `/v1/workflows/${id}/status`,
      'You must provide a different status from the current status'
    )
  )
})

test.each(PREFIXES)(
  'answers 401 to a Production key before reading the status body at %s',
  async (prefix) => {
    const res = await setStatus(mock(), ORDER_SHIPPED, {}, prefix, 'production-key')
    expect(res.status).toBe(401)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 401,
      path: `${prefix}/${ORDER_SHIPPED}/status`,
      message: 'This action is only allowed in Development environment',
      error: 'Unauthorized',
    })
  }
)

// Behaviours read from the upstream source at the facts' @HEAD commit (74a2e9a), beyond the facts file.

test('chains the _parentId of a step variants, the first one null', async () => {
  const condition = [
    {
      type: 'GROUP',
      value: 'AND',
      children: [{ on: 'payload', field: 'plan', value: 'pro', operator: 'EQUAL' }],
    },
  ]
  const variant = (content: string) => ({
    name: content,
    filters: condition,
    template: { type: 'in_app', content },
  })
  const res = await create(
    mock(),
    workflowBody({ steps: [{ ...inApp(), variants: [variant('a'), variant('b')] }] })
  )
  expect(res.status).toBe(201)
  const [first, second] = res.body.data.steps[0].variants
  expect(first._parentId).toBeNull()
  expect(second._parentId).toBe(first._id)
})

// Upstream's validatePayload checks every variant before storeTemplateSteps looks at any template.
test('checks the variant conditions of every step before any step template', async () => {
  const variant = { name: 'v', template: { type: 'in_app', content: 'x' } }
  const res = await create(
    mock(),
    workflowBody({ steps: [{ name: 'Empty' }, { ...inApp(), variants: [variant] }] })
  )
  expect(res.status).toBe(400)
  expect(res.body.message).toBe('Variant conditions are required, variant name v id undefined')
})

// The first step's checks run synchronously before the trigger's variables are extracted;
// later steps are checked only after an await, so the extraction failure wins there.
test.each([
  {
    case: 'a first step without a template',
    steps: [{ name: 'Empty' }, inApp('{{broken')],
    message: 'Unexpected error: message template is missing',
  },
  {
    case: 'a first step of an unknown type',
    steps: [{ name: 'Bad', template: { type: 'fax', content: '{{broken' } }],
    message: [
      'type must be one of the following values: in_app, email, sms, chat, push, digest, trigger, delay, custom',
    ],
  },
])('reports $case before a variable extraction failure', async ({ steps, message }) => {
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual(message)
})

test('reports a variable extraction failure before a later step without a template', async () => {
  const res = await create(mock(), workflowBody({ steps: [inApp('{{broken'), { name: 'Empty' }] }))
  expect(res.status).toBe(400)
  expect(res.body.message).toBe('Failed to extract variables')
})

test.each([
  { field: 'senderName', value: 5, message: ['senderName must be a string'] },
  { field: 'preheader', value: 5, message: ['preheader must be a string'] },
  { field: 'feedId', value: 5, message: ['feedId must be a string'] },
  { field: 'layoutId', value: 5, message: ['layoutId must be a string'] },
  { field: 'cta', value: 'x', message: ['nested property cta must be either object or array'] },
])('answers 400 to a step template with a $field of $value', async ({ field, value, message }) => {
  const template = { type: 'email', content: [{ type: 'text', content: 'x' }], [field]: value }
  const res = await create(mock(), workflowBody({ steps: [{ name: 'Email', template }] }))
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual(badRequest('/v1/workflows', message))
})

test('reports the description length before its type', async () => {
  const res = await create(mock(), workflowBody({ description: 5 }))
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual([
    'description must be shorter than or equal to 1000 characters',
    'description must be a string',
  ])
})

// The use case spreads data in only when it is truthy.
test('stores no data key when data is null', async () => {
  const res = await create(mock(), workflowBody({ data: null }))
  expect(res.status).toBe(201)
  expect(res.body.data).not.toHaveProperty('data')
})

test('keeps only the schema fields of filters, filter children and metadata', async () => {
  const child = { on: 'payload', field: 'plan', value: 'pro', operator: 'EQUAL', extra: 'dropped' }
  const filter = {
    isNegated: false,
    type: 'GROUP',
    value: 'AND',
    children: [child],
    extra: 'dropped',
  }
  const metadata = { amount: 5, unit: 'minutes', extra: 'dropped' }
  const steps = [{ name: 'Digest', template: { type: 'digest' }, filters: [filter], metadata }]
  const res = await create(mock(), workflowBody({ steps }))
  expect(res.status).toBe(201)
  const [built] = res.body.data.steps
  expect(built.filters[0]).not.toHaveProperty('extra')
  expect(built.filters[0].children[0]).not.toHaveProperty('extra')
  expect(built.metadata).toEqual({
    amount: 5,
    unit: 'minutes',
    timed: { weekDays: [], monthDays: [] },
  })
})

test('stores template variables with required false, an _id and no empty default', async () => {
  const variables = [{ name: 'code', type: 'String', defaultValue: '', extra: 'dropped' }]
  const res = await create(
    mock(),
    workflowBody({
      steps: [{ name: 'SMS', template: { type: 'sms', content: '{{code}}', variables } }],
    })
  )
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].template.variables).toEqual([
    { name: 'code', type: 'String', required: false, _id: expect.stringMatching(OBJECT_ID) },
  ])
})

test('answers 500 to a negative page of the list', async () => {
  const res = await request(mock(), 'GET', '/v1/workflows?page=-1')
  expect(res.status).toBe(500)
  expect(res.body).toMatchObject({
    statusCode: 500,
    path: '/v1/workflows?page=-1',
    errorId: expect.any(String),
  })
})

test('stores tags as strings', async () => {
  const res = await create(mock(), workflowBody({ tags: ['a', 1, true] }))
  expect(res.status).toBe(201)
  expect(res.body.data.tags).toEqual(['a', '1', 'true'])
})

// Neither field is validated upstream; Mongoose casts 'false', 0 and 'no' to false.
test('casts preference and step flags the way the Boolean schema type does', async () => {
  const steps = [{ ...inApp(), active: 'false', shouldStopOnFail: 1 }]
  const res = await create(
    mock(),
    workflowBody({ preferenceSettings: { email: 'false', sms: 0, chat: 'no' }, steps })
  )
  expect(res.status).toBe(201)
  expect(res.body.data.preferenceSettings).toEqual({
    email: false,
    sms: false,
    in_app: true,
    chat: false,
    push: true,
  })
  expect(res.body.data.steps[0]).toMatchObject({ active: false, shouldStopOnFail: true })
})

test('stores an upper-case group id as the lower-case ObjectId it casts to', async () => {
  const app = mock()
  const res = await create(app, workflowBody({ notificationGroupId: GENERAL.toUpperCase() }))
  expect(res.status).toBe(201)
  expect(res.body.data._notificationGroupId).toBe(GENERAL)
  const list = await request(app, 'GET', '/v1/workflows?limit=1')
  expect(list.body.data[0].notificationGroup).toMatchObject({ _id: GENERAL, name: 'General' })
})

test.each([
  {
    type: 'in_app',
    content: 'hello <b>bold</b> <script>alert(123)</script>',
    stored: 'hello <b>bold</b> ',
  },
  {
    type: 'email',
    content: [{ type: 'text', content: 'hello <b>bold</b> <script>alert(123)</script>', url: '' }],
    stored: [{ type: 'text', content: 'hello <b>bold</b> ', url: '' }],
  },
])('sanitises the HTML of $type editor content', async ({ type, content, stored }) => {
  const template = { type, contentType: 'editor', content }
  const res = await create(mock(), workflowBody({ steps: [{ name: 'Editor', template }] }))
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].template.content).toEqual(stored)
})

test('keeps the HTML of content that is not editor content', async () => {
  const content = 'hello <script>alert(123)</script>'
  const res = await create(
    mock(),
    workflowBody({ steps: [{ name: 'Raw', template: { type: 'in_app', content } }] })
  )
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].template.content).toBe(content)
})

test('stores an empty feedId as a null _feedId', async () => {
  const res = await create(
    mock(),
    workflowBody({
      steps: [{ name: 'In-App', template: { type: 'in_app', content: 'x', feedId: '' } }],
    })
  )
  expect(res.status).toBe(201)
  expect(res.body.data.steps[0].template._feedId).toBeNull()
})

test('accepts the analytics-only __source query parameter', async () => {
  const res = await create(mock(), workflowBody(), '/v1/workflows?__source=editor')
  expect(res.status).toBe(201)
})

// The blueprint path (§4.6): only when blueprintId is sent.

test('answers 404 "Notification group was not provided" to a blueprint without a group name', async () => {
  const res = await create(mock(), workflowBody({ blueprintId: 'bp-1' }))
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: '/v1/workflows',
    message: 'Notification group was not provided',
    error: 'Not Found',
  })
})

test('resolves a blueprint group by name to the environment own group', async () => {
  const res = await create(
    mock(),
    workflowBody({
      blueprintId: 'bp-1',
      notificationGroupId: UNKNOWN,
      notificationGroup: { name: 'General' },
    })
  )
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({
    blueprintId: 'bp-1',
    isBlueprint: false,
    _notificationGroupId: GENERAL,
  })
})

test('creates the named group of a blueprint when the environment has none', async () => {
  const app = mock()
  const res = await create(
    app,
    workflowBody({ blueprintId: 'bp-1', notificationGroup: { name: 'New Group Name' } })
  )
  expect(res.status).toBe(201)
  const groups = await request(app, 'GET', '/v1/notification-groups')
  const created = groups.body.data.find((g: Obj) => g.name === 'New Group Name')
  expect(created).toBeDefined()
  expect(res.body.data._notificationGroupId).toBe(created._id)
  expect(res.body.data._notificationGroupId).not.toBe(GENERAL)
})

test('clears the feed of every step of a blueprint', async () => {
  const feedId = '6718c1d0e1a2b3c4d5e6f777'
  const steps = [{ name: 'In-App', template: { type: 'in_app', content: 'x', feedId } }]
  const app = mock()
  const plain = await create(app, workflowBody({ steps }))
  expect(plain.body.data.steps[0].template._feedId).toBe(feedId)
  const blueprint = await create(
    app,
    workflowBody({ steps, blueprintId: 'bp-1', notificationGroup: { name: 'General' } })
  )
  expect(blueprint.status).toBe(201)
  expect(blueprint.body.data.steps[0].template._feedId).toBeNull()
})

test('a step that is not an object names the property in the nested message, as class-validator does', async () => {
  const res = await request(
    createMock({ apiGeneration: '2024-10', seed: 'test' }).app,
    'POST',
    '/v1/workflows',
    {
      body: { name: 'W', notificationGroupId: '66fbb0a0c1f2e3d4a5b60001', steps: ['x'] },
    }
  )
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual(['steps.nested property steps must be either object or array'])
})
