import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { ISO_DATE, OBJECT_ID, request, withoutErrorId, withoutTimestamp } from './helpers.js'

// /v2/workflows as today's server (2026-08) answers an API key: see novu-v2-facts.md §8-§13.
// Each test builds its own mock, so none sees another's writes.

const mock = () => createMock({ seed: 'v2' })
const app = () => mock().app
type App = ReturnType<typeof app>

const SLUG_MESSAGE =
  'must be a valid slug format (letters, numbers, hyphens, dot and underscores only)'

/** The facts' example: an email step with values, an in-app step without. */
const ORDER = {
  name: 'Order Confirmed',
  workflowId: 'order-confirmed',
  tags: ['orders'],
  steps: [
    {
      name: 'Email Step',
      type: 'email',
      controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'Hello' },
    },
    { name: 'In-App Step', type: 'in_app' },
  ],
}

/** One step, complete: the workflow is ACTIVE when active. */
const COMPLETE = {
  name: 'Invoice Paid',
  workflowId: 'invoice-paid',
  steps: [
    { name: 'Inbox', type: 'in_app', controlValues: { body: 'Invoice {{payload.id}} paid' } },
  ],
}

const post = (a: App, body: unknown, key?: string) =>
  request(a, 'POST', '/v2/workflows', { body, ...(key ? { key } : {}) })

async function create(a: App, body: unknown = COMPLETE) {
  const res = await post(a, body)
  expect(res.status).toBe(201)
  return res.body.data
}

const listV2 = async (a: App, query = '') =>
  (await request(a, 'GET', `/v2/workflows${query}`)).body.data

describe('POST /v2/workflows', () => {
  test('a create answers 201 with the workflow, active by default over raw HTTP', async () => {
    const res = await post(app(), ORDER)
    expect(res.status).toBe(201)
    const { steps, ...workflow } = res.body.data
    expect(workflow).toEqual({
      _id: expect.stringMatching(OBJECT_ID),
      slug: expect.stringMatching(/^order-confirmed_wf_[0-9A-Za-z]{16}$/),
      workflowId: 'order-confirmed',
      name: 'Order Confirmed',
      tags: ['orders'],
      active: true,
      preferences: {
        user: null,
        default: {
          all: { enabled: true, readOnly: false },
          channels: {
            in_app: { enabled: true },
            sms: { enabled: true },
            email: { enabled: true },
            push: { enabled: true },
            chat: { enabled: true },
            tool: { enabled: true },
          },
        },
      },
      description: '',
      origin: 'novu-cloud',
      lastPublishedAt: null,
      updatedAt: expect.stringMatching(ISO_DATE),
      createdAt: expect.stringMatching(ISO_DATE),
      updatedBy: { _id: expect.stringMatching(OBJECT_ID) },
      status: 'ERROR',
      lastTriggeredAt: null,
      payloadSchema: { type: 'object', additionalProperties: true, properties: {} },
      payloadExample: {},
      validatePayload: true,
      isTranslationEnabled: false,
      severity: 'none',
      agent: null,
    })
    expect(steps).toHaveLength(2)
  })

  test('each step answers its ids, slug, values, schemas and variables', async () => {
    const workflow = await create(app(), ORDER)
    const [email] = workflow.steps
    expect(Object.keys(email)).toEqual([
      'controls',
      'controlValues',
      'variables',
      'name',
      'slug',
      '_id',
      'stepId',
      'type',
      'origin',
      'workflowId',
      'workflowDatabaseId',
    ])
    expect(email).toMatchObject({
      name: 'Email Step',
      slug: expect.stringMatching(/^email-step_st_[0-9A-Za-z]{16}$/),
      _id: expect.stringMatching(OBJECT_ID),
      stepId: 'email-step',
      type: 'email',
      origin: 'novu-cloud',
      workflowId: 'order-confirmed',
      workflowDatabaseId: workflow._id,
      controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'Hello' },
      controls: {
        values: { subject: 'Hi {{subscriber.firstName}}', body: 'Hello' },
        dataSchema: { type: 'object', required: ['subject'], additionalProperties: false },
        uiSchema: { group: 'EMAIL' },
      },
    })
    expect(Object.keys(email.variables.properties)).toEqual([
      'workflow',
      'subscriber',
      'actor',
      'steps',
      'payload',
      'context',
      'env',
    ])
  })

  test('a step without values answers empty values and the issues its schema finds', async () => {
    const workflow = await create(app(), ORDER)
    const inApp = workflow.steps[1]
    expect(inApp.controlValues).toEqual({})
    expect(inApp.controls.values).toEqual({})
    expect(inApp.issues).toEqual({
      controls: {
        subject: [
          {
            message: 'Subject or body is required',
            issueType: 'MISSING_VALUE',
            variableName: 'subject',
          },
        ],
        body: [
          {
            message: 'Subject or body is required',
            issueType: 'MISSING_VALUE',
            variableName: 'body',
          },
        ],
      },
    })
  })

  test('an empty body fails the DTO with its four messages in upstream order', async () => {
    const res = await post(app(), {})
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v2/workflows',
      message: 'Validation Error',
      ctx: {},
      errors: {
        general: {
          messages: [
            `workflowId ${SLUG_MESSAGE}`,
            'workflowId must be a string',
            'steps must be an array',
            'name must be a string',
          ],
          value: 'No Value Recorded',
        },
      },
    })
  })

  test('a workflowId with leading and trailing separators is no slug', async () => {
    const res = await post(app(), { ...COMPLETE, workflowId: '_test-workflow-123_' })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([`workflowId ${SLUG_MESSAGE}`])
  })

  test('a step is checked against the class of its type, its path in front of each message', async () => {
    const res = await post(app(), {
      ...COMPLETE,
      steps: [{ type: 'email', name: 5, controlValues: 'x', stepId: '_a' }],
    })
    expect(res.body.errors.general.messages).toEqual([
      'steps.0.controlValues must be an object',
      `steps.0.stepId ${SLUG_MESSAGE}`,
      'steps.0.name must be a string',
    ])
  })

  test('a step that is no object names the steps property, as class-validator does', async () => {
    const res = await post(app(), { ...COMPLETE, steps: [5] })
    expect(res.body.errors.general.messages).toEqual([
      'steps.each value in nested property steps must be either object or array',
    ])
  })

  test('a null step makes class-transformer throw: 500 with an errorId', async () => {
    const res = await post(app(), { ...COMPLETE, steps: [null] })
    expect(res.status).toBe(500)
    expect(withoutErrorId(res.body)).toMatchObject({ statusCode: 500, path: '/v2/workflows' })
  })

  test('active, severity and payloadSchema are checked by the DTO', async () => {
    const res = await post(app(), {
      ...COMPLETE,
      active: 'yes',
      severity: 'urgent',
      payloadSchema: { type: 'invalid-type', properties: 'not-an-object' },
    })
    expect(res.body.errors.general.messages).toEqual([
      'severity must be one of the following values: high, medium, low, none',
      'active must be a boolean value',
      'payloadSchema must be a valid JSON schema',
    ])
  })

  test('an empty name fails UpsertWorkflowCommand, keyed under workflowDto', async () => {
    const res = await post(app(), { ...COMPLETE, name: '' })
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v2/workflows',
      message:
        'Validation failed for UpsertWorkflowCommand: workflowDto.name: name must be longer than or equal to 1 characters, name should not be empty',
      ctx: {},
      errors: {
        'workflowDto.name': {
          messages: [
            'name must be longer than or equal to 1 characters',
            'name should not be empty',
          ],
          value: '',
        },
      },
    })
  })

  test('an unknown step type passes the DTO and fails the command (which also takes trigger)', async () => {
    const res = await post(app(), { ...COMPLETE, steps: [{ name: 'Fax', type: 'fax' }] })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({
      'workflowDto.steps.0.type': {
        messages: [
          'type must be one of the following values: in_app, email, sms, chat, push, tool, digest, trigger, delay, throttle, custom, http_request',
        ],
        value: 'fax',
      },
    })
  })

  test('a body the commands refused is refused again, the same way, when it is sent again', async () => {
    const a = app()
    const body = { ...COMPLETE, description: 'd'.repeat(257) }
    const first = await post(a, body)
    const again = await post(a, body)
    expect(again.status).toBe(422)
    expect(withoutTimestamp(again.body)).toEqual(withoutTimestamp(first.body))
  })

  test('a body the commands passed creates again, suffixed, when it is sent again', async () => {
    const a = app()
    const body = { ...COMPLETE, workflowId: 'sent-twice' }
    expect((await post(a, body)).status).toBe(201)
    const again = await post(a, body)
    expect(again.status).toBe(201)
    expect(again.body.data.workflowId).toMatch(/^sent-twice-[a-z0-9]{8}$/)
  })

  test('seventeen tags fail the command', async () => {
    const tags = Array.from({ length: 17 }, (_, i) => `t${i}`)
    const res = await post(app(), { ...COMPLETE, tags })
    expect(res.body.errors['workflowDto.tags'].messages).toEqual([
      'tags must contain no more than 16 elements',
    ])
  })

  test('a description over 256 characters fails CreateWorkflowCommandV0, keyed without prefix', async () => {
    const res = await post(app(), { ...COMPLETE, description: 'd'.repeat(257) })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'Validation failed for CreateWorkflowCommandV0: description: description must be shorter than or equal to 256 characters'
    )
  })

  test('duplicate and empty tags fail CreateWorkflowCommandV0 with both messages', async () => {
    const res = await post(app(), { ...COMPLETE, tags: ['', 'a', 'a'] })
    expect(res.body.errors.tags).toEqual({
      messages: [
        'each value in tags must be longer than or equal to 1 and shorter than or equal to 64 characters',
        "All tags's elements must be unique",
      ],
      value: ['', 'a', 'a'],
    })
  })

  test('the DTO answers before the commands when both would fail', async () => {
    const res = await post(app(), { ...COMPLETE, name: '', active: 'yes' })
    expect(res.body.message).toBe('Validation Error')
    expect(res.body.errors.general.messages).toEqual(['active must be a boolean value'])
  })

  test('a taken workflowId is suffixed with - and 8 characters, not refused', async () => {
    const a = app()
    await create(a)
    const again = await create(a)
    expect(again.workflowId).toMatch(/^invoice-paid-[0-9a-z]{8}$/)
  })

  test('v1 trigger identifiers take workflowIds too', async () => {
    const workflow = await create(app(), { ...COMPLETE, workflowId: 'welcome-email' })
    expect(workflow.workflowId).toMatch(/^welcome-email-[0-9a-z]{8}$/)
  })

  test('a given stepId is kept; steps of the same name get suffixed ids', async () => {
    const workflow = await create(app(), {
      ...COMPLETE,
      steps: [
        { name: 'Inbox', type: 'in_app', stepId: 'my.step', controlValues: { body: 'a' } },
        { name: 'Same', type: 'in_app', controlValues: { body: 'b' } },
        { name: 'Same', type: 'in_app', controlValues: { body: 'c' } },
      ],
    })
    expect(workflow.steps.map((s: { stepId: string }) => s.stepId)).toEqual([
      'my.step',
      'same',
      expect.stringMatching(/^same-[0-9a-z]{8}$/),
    ])
  })

  test("steps of the same name all get the first one of them's values, as upstream matches by name", async () => {
    const workflow = await create(app(), {
      ...COMPLETE,
      steps: [
        { name: 'Same', type: 'in_app', controlValues: { body: 'first' } },
        { name: 'Same', type: 'in_app', controlValues: { body: 'second' } },
      ],
    })
    expect(workflow.steps.map((s: { controlValues: unknown }) => s.controlValues)).toEqual([
      { body: 'first' },
      { body: 'first' },
    ])
  })

  test('more than 20 steps is a 400', async () => {
    const steps = Array.from({ length: 21 }, (_, i) => ({ name: `S${i}`, type: 'delay' }))
    const res = await post(app(), { ...COMPLETE, steps })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'Workflow steps limit exceeded. Maximum allowed steps is 20, but got 21 steps.'
    )
  })

  test('the environment workflow limit counts v1 and v2 workflows alike', async () => {
    const a = createMock({ seed: 'v2', maxWorkflows: 9 }).app
    const v1 = (await request(a, 'GET', '/v1/workflows?limit=100')).body.totalCount
    expect(v1).toBe(8)
    await create(a)
    const res = await post(a, COMPLETE)
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toMatchObject({
      message: 'Workflow limit exceeded. Please contact us to support more workflows.',
      currentCount: 9,
      limit: 9,
    })
  })

  test('a refused create changes nothing', async () => {
    const a = app()
    const before = await listV2(a)
    await post(a, { ...COMPLETE, description: 'd'.repeat(257) })
    expect(await listV2(a)).toEqual(before)
  })

  test('a body over 100 kB is taken: /v2/workflows has the 26 MB limit', async () => {
    const body = 'x'.repeat(150 * 1024)
    const res = await post(app(), {
      ...COMPLETE,
      steps: [{ name: 'Long', type: 'in_app', controlValues: { body } }],
    })
    expect(res.status).toBe(201)
  })

  test('control values nested deeper than MongoDB stores are a 500, and nothing is stored', async () => {
    const a = app()
    let deep: unknown = 'leaf'
    for (let i = 0; i < 120; i++) deep = { a: deep }
    const res = await post(a, {
      ...COMPLETE,
      steps: [{ name: 'Deep', type: 'custom', controlValues: { deep } }],
    })
    expect(res.status).toBe(500)
    expect((await listV2(a)).totalCount).toBe(8)
  })

  test('a name in another script gets a random slug prefix and keeps its workflowId', async () => {
    const workflow = await create(app(), { ...COMPLETE, name: '你好 👋', workflowId: 'hello' })
    expect(workflow.name).toBe('你好 👋')
    expect(workflow.slug).toMatch(/^[0-9a-z]{8}_wf_[0-9A-Za-z]{16}$/)
  })

  test('a payloadSchema given without validatePayload reads back false', async () => {
    const payloadSchema = { type: 'object', properties: { id: { type: 'string' } } }
    const workflow = await create(app(), { ...COMPLETE, payloadSchema })
    expect(workflow).toMatchObject({
      payloadSchema,
      validatePayload: false,
      payloadExample: { id: 'string' },
    })
  })

  test('user preferences given are built over the defaults, the workflow ones too', async () => {
    const workflow = await create(app(), {
      ...COMPLETE,
      preferences: {
        user: { all: { enabled: false }, channels: { email: { enabled: true } } },
        workflow: { all: { readOnly: true }, channels: {} },
      },
    })
    expect(workflow.preferences.user).toEqual({
      all: { enabled: false, readOnly: false },
      channels: {
        in_app: { enabled: false },
        sms: { enabled: false },
        email: { enabled: true },
        push: { enabled: false },
        chat: { enabled: false },
        tool: { enabled: false },
      },
    })
    expect(workflow.preferences.default.all).toEqual({ enabled: true, readOnly: true })
  })

  test('user preferences without channels fail UpsertWorkflowCommand', async () => {
    const res = await post(app(), {
      ...COMPLETE,
      preferences: { user: { all: { enabled: true } } },
    })
    expect(res.body.errors).toEqual({
      'workflowDto.preferences.user.channels': { messages: ['channels must be an object'] },
    })
  })
})

describe('step issues and workflow status', () => {
  const one = async (step: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    create(app(), { ...COMPLETE, ...extra, steps: [{ name: 'Step', ...step }] })

  test('an email step without values lacks its subject: ERROR', async () => {
    const workflow = await one({ type: 'email' })
    expect(workflow.status).toBe('ERROR')
    expect(workflow.steps[0].issues).toEqual({
      controls: {
        subject: [
          { message: 'Subject is required', issueType: 'MISSING_VALUE', variableName: 'subject' },
        ],
      },
    })
  })

  test('an email step sent {} gets a subject from the sanitiser: ACTIVE, and its values echoed', async () => {
    const workflow = await one({ type: 'email', controlValues: {} })
    expect(workflow.status).toBe('ACTIVE')
    expect(workflow.steps[0].issues).toBeUndefined()
    expect(workflow.steps[0].controlValues).toEqual({})
  })

  test('an in-app redirect that is no URL is INVALID_URL, and the other branch still wants a subject', async () => {
    const workflow = await one({
      type: 'in_app',
      controlValues: { body: 'B', redirect: { url: 'bad url', target: '_blank' } },
    })
    expect(workflow.steps[0].issues.controls).toEqual({
      'redirect.url': [
        {
          message: 'Invalid URL. Must be a valid full URL, path starting with /, or {{variable}}',
          issueType: 'INVALID_URL',
          variableName: 'redirect.url',
        },
      ],
      subject: [
        {
          message: 'Subject or body is required',
          issueType: 'MISSING_VALUE',
          variableName: 'subject',
        },
      ],
    })
  })

  test.each([
    ['sms', ['body']],
    ['chat', ['body']],
    ['push', ['subject', 'body']],
    ['digest', ['amount', 'unit', 'cron']],
  ])('a %s step without values is missing %j', async (type, paths) => {
    const workflow = await one({ type })
    expect(Object.keys(workflow.steps[0].issues.controls)).toEqual(paths)
    expect(workflow.status).toBe('ERROR')
  })

  test('a complete regular delay has no issues', async () => {
    const workflow = await one({
      type: 'delay',
      controlValues: { type: 'regular', amount: 1, unit: 'minutes' },
    })
    expect(workflow.status).toBe('ACTIVE')
  })

  test('a delay without its type fails every branch of its schema', async () => {
    const workflow = await one({ type: 'delay', controlValues: { amount: 1, unit: 'minutes' } })
    const { controls } = workflow.steps[0].issues
    expect(controls.type.map((i: { message: string }) => i.message)).toEqual([
      'Type is required',
      'Type is required',
      'Type is required',
    ])
    expect(controls.amount[0]).toEqual({
      message: '"amount" is not a supported property',
      issueType: 'UNSUPPORTED_PROPERTY',
      variableName: 'amount',
    })
  })

  test('a custom step takes any values', async () => {
    const workflow = await one({ type: 'custom', controlValues: { anything: [1, { a: 2 }] } })
    expect(workflow.status).toBe('ACTIVE')
    expect(workflow.steps[0].controls.dataSchema).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: true,
    })
  })

  test('an inactive workflow is INACTIVE whatever its issues', async () => {
    const workflow = await one({ type: 'email' }, { active: false })
    expect(workflow.status).toBe('INACTIVE')
    expect(workflow.steps[0].issues.controls.subject).toHaveLength(1)
  })

  test('a block-editor email body that is no Maily document is stored empty', async () => {
    const workflow = await one({
      type: 'email',
      controlValues: { subject: 'S', body: '<p>Hi</p>', editorType: 'block' },
    })
    expect(workflow.steps[0].controlValues).toEqual({ subject: 'S', body: '', editorType: 'block' })
  })

  test('an html-editor email body is kept', async () => {
    const workflow = await one({
      type: 'email',
      controlValues: { subject: 'S', body: '<p>Hi</p>', editorType: 'html' },
    })
    expect(workflow.steps[0].controlValues.body).toBe('<p>Hi</p>')
  })

  test('a payload variable the closed payload schema lacks is an illegal variable: ERROR', async () => {
    const workflow = await one(
      { type: 'email', controlValues: { subject: 'Welcome', body: 'Hello {{payload.firstName}}' } },
      {
        payloadSchema: {
          type: 'object',
          properties: {},
          required: [],
          additionalProperties: false,
        },
      }
    )
    expect(workflow.status).toBe('ERROR')
    expect(workflow.steps[0].issues.controls.body).toEqual([
      {
        message: 'Variable "payload.firstName" is not supported',
        issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        variableName: 'payload.firstName',
      },
    ])
  })

  test('an empty Liquid output is reported as {{}}', async () => {
    const workflow = await one({
      type: 'email',
      controlValues: { body: 'Welcome {{}}', subject: 'Welcome {{}}' },
    })
    expect(workflow.steps[0].issues.controls.body).toEqual([
      {
        message: 'Variable "{{}}" invalid value expression: "",',
        issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        variableName: '{{}}',
      },
    ])
  })

  test('a variable without a namespace is refused; a loop variable is not', async () => {
    const workflow = await one({
      type: 'in_app',
      controlValues: {
        body: '{% for item in payload.items %}{{ item.name }}{% endfor %} {{ firstName }}',
      },
    })
    expect(workflow.steps[0].issues.controls).toEqual({
      body: [
        {
          message: 'Variable "firstName" invalid or missing namespace',
          issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
          variableName: 'firstName',
        },
      ],
    })
  })

  test('a subscriber field that does not exist is not supported', async () => {
    const workflow = await one({
      type: 'sms',
      controlValues: { body: 'Hi {{subscriber.nickname}}' },
    })
    expect(workflow.steps[0].issues.controls.body[0].message).toBe(
      'Variable "subscriber.nickname" is not supported'
    )
  })
})

describe('GET /v2/workflows/{workflowId}', () => {
  test('the _id, the workflowId and the slug find the same workflow, as it was created', async () => {
    const a = app()
    const created = await create(a, ORDER)
    for (const id of [created._id, created.workflowId, created.slug]) {
      const res = await request(a, 'GET', `/v2/workflows/${id}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual(created)
    }
  })

  test('an unknown workflow is a 404 naming it flat and in ctx', async () => {
    const res = await request(app(), 'GET', '/v2/workflows/no-such-workflow')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      workflowId: 'no-such-workflow',
      statusCode: 404,
      path: '/v2/workflows/no-such-workflow',
      message: 'Workflow cannot be found',
      ctx: { workflowId: 'no-such-workflow' },
    })
  })

  test('an unknown slug is a 404 naming the id it decodes to', async () => {
    const res = await request(app(), 'GET', '/v2/workflows/gone_wf_g90z2yIFnyb6NHKy')
    expect(res.body.workflowId).toBe('68b5a1c2d3e4f5a6b7c8d9e0')
  })

  test('environmentId of another environment is a 403 for an API key', async () => {
    const a = app()
    const created = await create(a)
    const res = await request(
      a,
      'GET',
      `/v2/workflows/${created._id}?environmentId=000000000000000000000000`
    )
    expect(res.status).toBe(403)
    expect(res.body.message).toBe(
      'This authentication scheme is scoped to a single environment and cannot target a different `_environmentId`. Use credentials from the target environment, or authenticate with a session token.'
    )
  })

  test('a v1 workflow reads as novu-cloud-v1, its steps without schemas or values', async () => {
    const res = await request(app(), 'GET', '/v2/workflows/welcome-email')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      _id: '66fbb0a0c1f2e3d4a5b61001',
      workflowId: 'welcome-email',
      origin: 'novu-cloud-v1',
      status: 'ACTIVE',
    })
    expect(res.body.data.steps[0]).toMatchObject({
      controls: { values: {} },
      controlValues: {},
      origin: 'novu-cloud-v1',
    })
    expect(res.body.data.steps[0].controls.dataSchema).toBeUndefined()
  })
})

describe('GET /v2/workflows', () => {
  test('the list holds v1 and v2 workflows, newest first, wrapped with its totalCount', async () => {
    const a = app()
    const created = await create(a)
    const data = await listV2(a)
    expect(data.totalCount).toBe(9)
    expect(data.workflows).toHaveLength(9)
    expect(data.workflows[0]).toEqual({
      _id: created._id,
      workflowId: 'invoice-paid',
      slug: created.slug,
      name: 'Invoice Paid',
      origin: 'novu-cloud',
      tags: [],
      updatedAt: created.updatedAt,
      lastPublishedAt: '',
      stepTypeOverviews: ['in_app'],
      createdAt: created.createdAt,
      updatedBy: created.updatedBy,
      status: 'ACTIVE',
      lastTriggeredAt: null,
      isTranslationEnabled: false,
      steps: [{ slug: created.steps[0].slug, type: 'in_app', issues: {} }],
    })
  })

  test('offset and limit page through the list; totalCount ignores them', async () => {
    const a = app()
    const all = (await listV2(a)).workflows
    const page = await listV2(a, '?offset=3&limit=2')
    expect(page.totalCount).toBe(8)
    expect(page.workflows.map((w: { _id: string }) => w._id)).toEqual(
      all.slice(3, 5).map((w: { _id: string }) => w._id)
    )
  })

  test('query matches name or workflowId, case-insensitively', async () => {
    const a = app()
    await create(a, { ...COMPLETE, name: 'Zeta', workflowId: 'ZZ-top' })
    expect((await listV2(a, '?query=zz-T')).workflows.map((w: { name: string }) => w.name)).toEqual(
      ['Zeta']
    )
    expect((await listV2(a, '?query=zeta')).totalCount).toBe(1)
  })

  test('tags match any of those given; status only the stored one', async () => {
    const a = app()
    await create(a, { ...COMPLETE, tags: ['b'], active: false })
    expect((await listV2(a, '?tags=a&tags=b')).totalCount).toBe(1)
    expect((await listV2(a, '?status=INACTIVE')).totalCount).toBe(1)
    // v1 workflows created by v1 routes store no status: no status filter finds them.
    expect((await listV2(a, '?status=ACTIVE')).totalCount).toBe(0)
  })

  test('orderBy name ascending sorts by the bytes of the name', async () => {
    const a = app()
    await create(a, { ...COMPLETE, name: 'aaa', workflowId: 'lower' })
    const names = (await listV2(a, '?orderBy=name&orderDirection=ASC')).workflows.map(
      (w: { name: string }) => w.name
    )
    expect(names.at(-1)).toBe('aaa')
    expect([...names].sort()).toEqual(names)
  })

  test('limit that is no number falls back to 50', async () => {
    const res = await request(app(), 'GET', '/v2/workflows?limit=abc')
    expect(res.status).toBe(200)
  })

  test.each([
    ['limit=0', 'limit must not be less than 1'],
    ['limit=101', 'limit must not be greater than 100'],
    ['limit=2.5', 'limit must be an integer number'],
    ['offset=-1', 'offset must not be less than 0'],
    ['orderDirection=asc', 'orderDirection must be one of the following values: ASC, DESC'],
    [
      'orderBy=foo',
      'orderBy must be one of the following values: createdAt, updatedAt, name, lastTriggeredAt',
    ],
    [
      'status=FOO',
      'each value in status must be one of the following values: ACTIVE, INACTIVE, ERROR',
    ],
  ])('?%s is a 422: %s', async (query, message) => {
    const res = await request(app(), 'GET', `/v2/workflows?${query}`)
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([message])
  })
})

describe('PATCH /v2/workflows/{workflowId}', () => {
  const patch = (a: App, id: string, body: unknown) =>
    request(a, 'PATCH', `/v2/workflows/${id}`, { body })

  test('active false makes the workflow INACTIVE, true ACTIVE again', async () => {
    const a = app()
    const created = await create(a)
    const off = await patch(a, created.workflowId, { active: false })
    expect(off.status).toBe(200)
    expect(off.body.data).toMatchObject({ active: false, status: 'INACTIVE' })
    const on = await patch(a, created.workflowId, { active: true })
    expect(on.body.data).toMatchObject({ active: true, status: 'ACTIVE' })
  })

  test('reactivating a workflow whose steps have issues makes it ERROR', async () => {
    const a = app()
    const created = await create(a, { ...ORDER, active: false })
    const on = await patch(a, created._id, { active: true })
    expect(on.body.data.status).toBe('ERROR')
  })

  test('patching the status a workflow already has is a 200, not a 400', async () => {
    const a = app()
    const created = await create(a)
    expect((await patch(a, created.slug, { active: true })).status).toBe(200)
  })

  test('name, description and tags change; the slug follows the name', async () => {
    const a = app()
    const created = await create(a)
    const res = await patch(a, created._id, { name: 'Receipt Sent', description: 'd', tags: ['x'] })
    expect(res.body.data).toMatchObject({
      name: 'Receipt Sent',
      description: 'd',
      tags: ['x'],
      slug: expect.stringMatching(/^receipt-sent_wf_/),
      workflowId: 'invoice-paid',
    })
  })

  test('a patch moves updatedAt', async () => {
    const { app: a, admin } = mock()
    const created = await create(a)
    await admin.forKey('test-key').advanceClock('1h')
    const res = await patch(a, created._id, {})
    expect(
      Date.parse(res.body.data.updatedAt) - Date.parse(created.updatedAt)
    ).toBeGreaterThanOrEqual(3_600_000)
  })

  test("a new payload schema recomputes the steps' issues and can clear ERROR", async () => {
    const a = app()
    const created = await create(a, {
      ...COMPLETE,
      payloadSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      steps: [
        {
          name: 'Email',
          type: 'email',
          controlValues: { subject: 'Welcome', body: 'Hello {{payload.firstName}}' },
        },
      ],
    })
    expect(created.status).toBe('ERROR')
    const res = await patch(a, created._id, {
      payloadSchema: {
        type: 'object',
        properties: { firstName: { type: 'string' } },
        required: [],
        additionalProperties: false,
      },
    })
    expect(res.body.data.status).toBe('ACTIVE')
    expect(res.body.data.steps[0].issues).toBeUndefined()
  })

  test('a value of the wrong type fails the DTO', async () => {
    const a = app()
    const created = await create(a)
    const res = await patch(a, created._id, { active: 'yes' })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['active must be a boolean value'])
  })

  test('a falsy payloadSchema passes the DTO and fails PatchWorkflowCommand', async () => {
    const a = app()
    const created = await create(a)
    const res = await patch(a, created._id, { payloadSchema: false })
    expect(res.body.message).toBe(
      'Validation failed for PatchWorkflowCommand: payloadSchema: payloadSchema must be an object'
    )
  })

  test('an unknown workflow is a 404', async () => {
    const res = await patch(app(), 'nope', { active: false })
    expect(res.status).toBe(404)
    expect(res.body.ctx).toEqual({ workflowId: 'nope' })
  })

  test('a v1 workflow patched active keeps its draft flag, as only v2 fields change', async () => {
    const a = app()
    await patch(a, 'order-shipped', { active: true })
    const v1 = await request(a, 'GET', '/v1/workflows/66fbb0a0c1f2e3d4a5b61002')
    expect(v1.body.data).toMatchObject({ active: true, draft: true, status: 'ACTIVE' })
  })
})

describe('PUT /v2/workflows/{workflowId}', () => {
  const put = (a: App, id: string, body: unknown) =>
    request(a, 'PUT', `/v2/workflows/${id}`, { body })

  test('steps sent with their _id are kept, others are new, the rest removed', async () => {
    const a = app()
    const created = await create(a, ORDER)
    const [email] = created.steps
    const res = await put(a, created.workflowId, {
      name: 'Order Confirmed',
      steps: [
        { _id: email._id, name: 'Email Step', type: 'email', controlValues: { subject: 'New' } },
        { name: 'Text', type: 'sms', controlValues: { body: 'b' } },
      ],
    })
    expect(res.status).toBe(200)
    const steps = res.body.data.steps
    expect(
      steps.map((s: { _id: string; stepId: string }) => [s._id === email._id, s.stepId])
    ).toEqual([
      [true, 'email-step'],
      [false, 'text'],
    ])
    expect(steps[0].controlValues).toEqual({ subject: 'New' })
    expect(res.body.data.status).toBe('ACTIVE')
  })

  test('the origin and workflowId in the body are ignored', async () => {
    const a = app()
    const created = await create(a)
    const res = await put(a, created._id, {
      ...COMPLETE,
      workflowId: 'other',
      origin: 'external',
    })
    expect(res.body.data).toMatchObject({ workflowId: 'invoice-paid', origin: 'novu-cloud' })
  })

  test('a kept step sent without values loses them, its issues computed from the old ones', async () => {
    const a = app()
    const created = await create(a, {
      ...COMPLETE,
      steps: [{ name: 'Mail', type: 'email', controlValues: { subject: 'S' } }],
    })
    const res = await put(a, created._id, {
      name: 'Invoice Paid',
      steps: [{ _id: created.steps[0]._id, name: 'Mail', type: 'email' }],
    })
    expect(res.body.data.steps[0].controlValues).toEqual({})
    expect(res.body.data.steps[0].issues).toBeUndefined()
  })

  test('active defaults to true and user preferences are cleared when not sent', async () => {
    const a = app()
    const created = await create(a, {
      ...COMPLETE,
      active: false,
      preferences: { user: { all: { enabled: true }, channels: {} } },
    })
    const res = await put(a, created._id, { name: 'Invoice Paid', steps: COMPLETE.steps })
    expect(res.body.data).toMatchObject({ active: true, status: 'ACTIVE' })
    expect(res.body.data.preferences.user).toBeNull()
  })

  test('a body that fails validation answers 422 before the workflow is looked up', async () => {
    const res = await put(app(), 'nope', { name: '', steps: [] })
    expect(res.status).toBe(422)
  })

  test('an unknown workflow is a 404', async () => {
    const res = await put(app(), 'nope', COMPLETE)
    expect(res.status).toBe(404)
  })
})

describe('DELETE /v2/workflows/{workflowId}', () => {
  test('a delete answers 204 without a body; the workflow is gone for GET and DELETE', async () => {
    const a = app()
    const created = await create(a)
    const res = await request(a, 'DELETE', `/v2/workflows/${created.slug}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await request(a, 'GET', `/v2/workflows/${created._id}`)).status).toBe(404)
    const again = await request(a, 'DELETE', `/v2/workflows/${created.workflowId}`)
    expect(again.status).toBe(404)
    expect(again.body.message).toBe('Workflow cannot be found')
  })

  test('the workflowId of a deleted workflow can be used again as it is', async () => {
    const a = app()
    const created = await create(a)
    await request(a, 'DELETE', `/v2/workflows/${created._id}`)
    expect((await create(a)).workflowId).toBe('invoice-paid')
  })

  test('a v1 workflow can be deleted through v2', async () => {
    const a = app()
    expect((await request(a, 'DELETE', '/v2/workflows/order-shipped')).status).toBe(204)
    expect((await request(a, 'GET', '/v1/workflows/order-shipped')).status).toBe(404)
  })
})

describe('one store with the v1 routes', () => {
  test('GET /v1/workflows leaves dashboard workflows out', async () => {
    const a = app()
    await create(a)
    const v1 = await request(a, 'GET', '/v1/workflows?limit=100')
    expect(v1.body.totalCount).toBe(8)
    expect(v1.body.data.map((w: { origin: string }) => w.origin)).not.toContain('novu-cloud')
  })

  test('GET /v1/workflows/{id} shows a dashboard workflow as its document, without control values', async () => {
    const a = app()
    const created = await create(a, ORDER)
    const v1 = await request(a, 'GET', `/v1/workflows/${created._id}`)
    expect(v1.status).toBe(200)
    expect(v1.body.data).toMatchObject({
      type: 'BRIDGE',
      origin: 'novu-cloud',
      draft: true,
      triggers: [{ identifier: 'order-confirmed' }],
      _notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
    })
    expect(v1.body.data.steps[0]).not.toHaveProperty('controlValues')
    expect(v1.body.data.steps[0].template.controls.schema.required).toEqual(['subject'])
  })

  test('a v2 workflowId makes a v1 create suffix its identifier', async () => {
    const a = app()
    await create(a, { ...COMPLETE, workflowId: 'receipt' })
    const v1 = await request(a, 'POST', '/v1/workflows', {
      body: {
        name: 'Receipt',
        notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
        steps: [{ template: { type: 'in_app', content: 'x' } }],
      },
    })
    expect(v1.body.data.triggers[0].identifier).toMatch(/^receipt-[0-9a-z]{8}$/)
  })

  test('an exported environment imported again answers the same v2 workflow', async () => {
    const { app: a, admin } = mock()
    const created = await create(a, ORDER)
    const before = await request(a, 'GET', `/v2/workflows/${created._id}`)
    await admin.importState('test-key', await admin.exportState('test-key'))
    const after = await request(a, 'GET', `/v2/workflows/${created._id}`)
    expect(after.body).toEqual(before.body)
  })

  test('the OpenAPI document describes the v2 routes', async () => {
    const res = await request(app(), 'GET', '/__admin/openapi.json')
    const paths = res.body.paths
    expect(Object.keys(paths['/v2/workflows'])).toEqual(['post', 'get'])
    expect(Object.keys(paths['/v2/workflows/{workflowId}'])).toEqual([
      'get',
      'put',
      'patch',
      'delete',
    ])
    expect(
      paths['/v2/workflows'].post.requestBody.content['application/json'].schema.required
    ).toEqual(['name', 'workflowId', 'steps'])
  })
})
