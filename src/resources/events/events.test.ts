import { describe, expect, test } from 'vitest'
import { request, UUID_V4, withoutTimestamp } from '../../../test/helpers.js'
import {
  createWorkflow,
  email,
  inApp,
  messagesOf,
  allMessages,
  snapshot,
  sms,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// POST /v1/events/trigger: the HTTP-time checks and answers of each generation.

const TO_MESSAGE =
  'to must be a non-empty subscriberId string, an object with a non-empty subscriberId, a topic object with a non-empty topicKey, or a non-empty array of those'

async function withWorkflow(
  generation: '2026-08' | '2024-10',
  extra: Record<string, unknown> = {}
) {
  const mock = triggerMock(generation)
  const wf = await createWorkflow(
    mock.app,
    'Welcome',
    [inApp('Hi {{firstName}}'), email('Hello {{firstName}}', 'Welcome {{firstName}}')],
    extra
  )
  return { ...mock, wf }
}

describe('request validation', () => {
  test('2026-08 answers 422 with every message of an empty body in declaration order', async () => {
    const { app } = triggerMock('2026-08')
    const res = await trigger(app, {})
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v1/events/trigger',
      message: 'Validation Error',
      ctx: {},
      errors: {
        general: {
          messages: [
            'name should not be null or undefined',
            'name must be a string',
            'to should not be null or undefined',
            TO_MESSAGE,
          ],
          value: 'No Value Recorded',
        },
      },
    })
  })

  test('2024-10 answers 400 with the message array of an empty body', async () => {
    const { app } = triggerMock('2024-10')
    const res = await trigger(app, {})
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 400,
      path: '/v1/events/trigger',
      message: [
        'name should not be null or undefined',
        'name must be a string',
        'to should not be null or undefined',
      ],
      error: 'Bad Request',
    })
  })

  test('2024-10 reports wrong types in the order the DTO declares its properties', async () => {
    const { app } = triggerMock('2024-10')
    const res = await trigger(app, {
      name: 'a',
      to: 'x',
      payload: 's',
      overrides: 3,
      transactionId: 5,
      bridgeUrl: 1,
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'payload must be an object',
      'bridgeUrl must be a string',
      'overrides must be an object',
      'transactionId must be a string',
    ])
  })

  test.each([
    ['2026-08', { subscriberId: '' }],
    ['2026-08', ''],
    ['2026-08', []],
    ['2026-08', ['u1', '']],
    ['2026-08', { email: 'a@b.co' }],
  ] as const)('%s refuses to = %j with the recipients message', async (generation, to) => {
    const { app } = triggerMock(generation)
    const res = await trigger(app, { name: 'anything', to })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([TO_MESSAGE])
  })

  test('2024-10 lets an empty to through to the workflow lookup', async () => {
    const { app } = triggerMock('2024-10')
    const res = await trigger(app, { name: 'unknown-workflow', to: '' })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('workflow_not_found')
  })

  test.each([
    [
      '2026-08',
      {},
      [
        'actor.subscriberId should not be null or undefined',
        'actor.SubscriberId is required',
        'actor.subscriberId must be a string',
      ],
    ],
    [
      '2024-10',
      {},
      ['actor.subscriberId should not be null or undefined', 'actor.subscriberId must be a string'],
    ],
    ['2026-08', { subscriberId: 's', email: 'bad' }, ['actor.email must be an email']],
    ['2024-10', 5, ['nested property actor must be either object or array']],
  ] as const)('%s validates actor %j as a subscriber', async (generation, actor, messages) => {
    const { app } = triggerMock(generation)
    const res = await trigger(app, { name: 'wf', to: 'u1', actor })
    const got = generation === '2026-08' ? res.body.errors.general.messages : res.body.message
    expect(got).toEqual(messages)
  })

  test('tenant.identifier must be a string', async () => {
    const { app } = triggerMock('2024-10')
    const res = await trigger(app, { name: 'wf', to: 'u1', tenant: { identifier: 5 } })
    expect(res.body.message).toEqual(['tenant.identifier must be a string'])
  })

  test('a payload that is an array is refused', async () => {
    const { app } = triggerMock('2026-08')
    const res = await trigger(app, { name: 'wf', to: 'u1', payload: [] })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['payload must be an object'])
  })

  test('a refused trigger stores nothing', async () => {
    const mock = triggerMock('2026-08')
    const before = await snapshot(mock)
    await trigger(mock.app, { name: 'wf', to: [] })
    expect(await snapshot(mock)).toBe(before)
  })
})

describe('answers', () => {
  test.each(['2026-08', '2024-10'] as const)(
    '%s answers 422 workflow_not_found for an unknown identifier',
    async (generation) => {
      const { app } = triggerMock(generation)
      const res = await trigger(app, { name: 'nope', to: 'u1' })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({
        statusCode: 422,
        message: 'workflow_not_found',
        error: 'Unprocessable Entity',
      })
      if (generation === '2026-08')
        expect(res.body.ctx).toEqual({ error: 'Unprocessable Entity', statusCode: 422 })
      else expect(res.body.ctx).toBeUndefined()
    }
  )

  test('the identifier is matched case-sensitively', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    const res = await trigger(app, { name: wf.identifier.toUpperCase(), to: 'u1' })
    expect(res.status).toBe(422)
  })

  test('2026-08 answers 201 processed with a txn_ transaction id', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    const res = await trigger(app, { name: wf.identifier, to: 'u1' })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      acknowledged: true,
      status: 'processed',
      transactionId: expect.stringMatching(/^txn_[0-9a-f]{8}[0-9a-z]{12}$/),
    })
  })

  test('2024-10 generates a uuid v4 transaction id, also for an empty one', async () => {
    const { app, wf } = await withWorkflow('2024-10')
    const res = await trigger(app, { name: wf.identifier, to: 'u1', transactionId: '' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body.data)).toEqual(['acknowledged', 'status', 'transactionId'])
    expect(res.body.data.transactionId).toMatch(UUID_V4)
  })

  test('generated transaction ids repeat for the same seed and key', async () => {
    const first = await withWorkflow('2024-10')
    const second = await withWorkflow('2024-10')
    const a = await trigger(first.app, { name: first.wf.identifier, to: 'u1' })
    const b = await trigger(second.app, { name: second.wf.identifier, to: 'u1' })
    expect(a.body.data.transactionId).toBe(b.body.data.transactionId)
  })

  test('a given transaction id is echoed unchanged', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    const res = await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'order 1/2' })
    expect(res.body.data.transactionId).toBe('order 1/2')
  })

  test.each([
    ['2026-08', true],
    ['2024-10', false],
  ] as const)(
    '%s: an inactive workflow answers trigger_not_active (transactionId: %s)',
    async (generation, carries) => {
      const { app, wf } = await withWorkflow(generation, { active: false })
      const res = await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        acknowledged: true,
        status: 'trigger_not_active',
        ...(carries ? { transactionId: 'tx' } : {}),
      })
      expect(await messagesOf(app, 'tx')).toEqual([])
    }
  )

  test.each([
    ['2026-08', true],
    ['2024-10', false],
  ] as const)(
    '%s: any tenant answers no_tenant_found (transactionId: %s)',
    async (generation, carries) => {
      const { app, wf } = await withWorkflow(generation)
      const res = await trigger(app, {
        name: wf.identifier,
        to: 'u1',
        tenant: 'acme',
        transactionId: 'tx',
      })
      expect(res.body.data).toEqual({
        acknowledged: true,
        status: 'no_tenant_found',
        ...(carries ? { transactionId: 'tx' } : {}),
      })
    }
  )

  test('2024-10 answers no_workflow_steps_defined for a workflow without steps', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Empty', [])
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    expect(res.body.data).toEqual({ acknowledged: true, status: 'no_workflow_steps_defined' })
  })

  test('2024-10 answers no_workflow_active_steps_defined when every step is inactive', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Off', [{ ...inApp('x'), active: false }])
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    expect(res.body.data).toEqual({
      acknowledged: true,
      status: 'no_workflow_active_steps_defined',
    })
  })

  test('2026-08 processes a workflow without active steps, sending nothing', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Off', [{ ...inApp('x'), active: false }])
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect(res.body.data.status).toBe('processed')
    expect(await messagesOf(mock.app, 'tx')).toEqual([])
  })

  test('2026-08 refuses an agentId with 400, as no agent exists', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    const res = await trigger(app, { name: wf.identifier, to: 'u1', agentId: 'support' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Agent with identifier "support" was not found.')
  })
})

describe('payload checks', () => {
  const required = [
    {
      template: {
        type: 'in_app',
        content: '{{myUser.lastName}}',
        variables: [
          { name: 'myUser.lastName', type: 'String', required: true },
          { name: 'myUser.array', type: 'Array', required: true },
          { name: 'myUser.bool', type: 'Boolean', required: true },
        ],
      },
    },
  ]

  test('2024-10 refuses missing required variables with their types', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Required', required)
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1', payload: { myUser: {} } })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'payload is missing required key(s) and type(s): myUser.lastName (Value), myUser.array (Array), myUser.bool (Boolean)'
    )
  })

  test('2024-10 accepts an empty string, an empty array and true', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Required', required)
    const res = await trigger(mock.app, {
      name: wf.identifier,
      to: 'u1',
      payload: { myUser: { lastName: '', array: [], bool: true } },
    })
    expect(res.status).toBe(201)
  })

  test('2026-08 answers processed and sends nothing when required variables are missing', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Required', required)
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect(res.body.data.status).toBe('processed')
    expect(await messagesOf(mock.app, 'tx')).toEqual([])
  })

  test('2024-10 asks for the actor when the content uses it', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Actor', [inApp('{{actor.firstName}} did it')])
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Trigger is missing: actor object')
  })

  test('variable defaults fill the payload', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Defaults', [
      inApp('Hi {{name}}', {
        variables: [{ name: 'name', type: 'String', defaultValue: 'there' }],
      }),
    ])
    await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message?.content).toBe('Hi there')
    expect(message?.payload).toEqual({ name: 'there' })
  })

  test('attachments never reach the messages', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      payload: {
        firstName: 'A',
        attachments: [{ name: 'a.txt', file: 'aGk=', mime: 'text/plain' }],
      },
    })
    const messages = await messagesOf(app, 'tx')
    expect(messages.length).toBeGreaterThan(0)
    for (const m of messages) expect(m.payload.attachments).toBeUndefined()
  })

  test('a deeply nested payload is accepted and kept as sent', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    let deep: Record<string, unknown> = { leaf: 'x' }
    for (let i = 0; i < 200; i++) deep = { deep }
    const res = await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      payload: deep,
    })
    expect(res.status).toBe(201)
    const [message] = await messagesOf(app, 'tx')
    expect(JSON.stringify(message?.payload)).toBe(JSON.stringify(deep))
  })

  test.each([
    ['2026-08', 413],
    ['2024-10', 413],
  ] as const)(
    '%s refuses a body over the events limit with %i and stores nothing',
    async (generation, status) => {
      const mock = triggerMock(generation)
      const before = await snapshot(mock)
      const big = 'x'.repeat(27 * 1024 * 1024)
      const res = await request(mock.app, 'POST', '/v1/events/trigger', {
        body: `{"name":"wf","to":"u1","payload":{"big":"${big}"}}`,
      })
      expect(res.status).toBe(status)
      expect(await snapshot(mock)).toBe(before)
    }
  )
})

describe('what a trigger creates', () => {
  test('one message per subscriber and active channel step, newest first', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Three', [inApp('a'), email('s', 'b'), sms('c')])
    await trigger(mock.app, {
      name: wf.identifier,
      to: [{ subscriberId: 'u1', email: 'u1@x.io', phone: '+1555' }],
      transactionId: 'tx',
    })
    const messages = await messagesOf(mock.app, 'tx')
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'in_app', 'sms'])
    for (const m of messages) expect(m.status).toBe('sent')
  })

  test('an email step without an address creates a warning message', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Mail', [email('s', 'b')])
    await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message).toMatchObject({
      channel: 'email',
      status: 'warning',
      errorId: 'mail_unexpected_error',
      errorText: 'Subscriber does not have an email address',
    })
    expect(message?.email).toBeUndefined()
  })

  test('an SMS step without a phone creates a warning message', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Text', [sms('hello')])
    await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message).toMatchObject({
      status: 'warning',
      errorId: 'no_subscriber_phone',
      errorText: 'Subscriber does not have active phone',
    })
  })

  test('2024-10 sends email to payload.email; 2026-08 ignores it for overrides.email.toRecipient', async () => {
    for (const [generation, expected] of [
      ['2024-10', 'payload@x.io'],
      ['2026-08', 'override@x.io'],
    ] as const) {
      const mock = triggerMock(generation)
      const wf = await createWorkflow(mock.app, 'Mail', [email('s', 'b')])
      await trigger(mock.app, {
        name: wf.identifier,
        to: { subscriberId: 'u1', email: 'stored@x.io' },
        transactionId: 'tx',
        payload: { email: 'payload@x.io' },
        overrides: { email: { toRecipient: 'override@x.io' } },
      })
      const [message] = await messagesOf(mock.app, 'tx')
      expect(message?.email, generation).toBe(expected)
    }
  })

  test('2024-10 messages carry expireAt and deleted; 2026-08 messages severity and deliveredAt', async () => {
    const old = await withWorkflow('2024-10')
    await trigger(old.app, { name: old.wf.identifier, to: 'u1', transactionId: 'tx' })
    const [oldEmail, oldInApp] = await messagesOf(old.app, 'tx')
    expect(oldInApp?.deleted).toBe(false)
    const days = (m: Record<string, string> | undefined) =>
      (Date.parse(m?.expireAt ?? '') - Date.parse(m?.createdAt ?? '')) / 86_400_000
    expect(days(oldInApp)).toBe(365)
    expect(days(oldEmail)).toBe(30)
    const today = await withWorkflow('2026-08')
    await trigger(today.app, { name: today.wf.identifier, to: 'u1', transactionId: 'tx' })
    const [, inAppToday] = await messagesOf(today.app, 'tx')
    expect(inAppToday).toMatchObject({ severity: 'none', deliveredAt: [inAppToday?.createdAt] })
    expect(inAppToday?.expireAt).toBeUndefined()
    expect(inAppToday?.deleted).toBeUndefined()
  })

  test('the in-app content renders the payload escaped and the template as written', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Html', [
      inApp("Test content for <b>{{firstName}}</b>, it's {{subscriber.subscriberId}}", {
        cta: { type: 'redirect', data: { url: '/test?name={{firstName}}' } },
      }),
    ])
    await trigger(mock.app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      payload: { firstName: "O'Neil <i>" },
    })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message?.content).toBe("Test content for <b>O'Neil &lt;i&gt;</b>, it's u1")
    expect(message?.cta).toEqual({
      type: 'redirect',
      data: { url: "/test?name=O'Neil &lt;i&gt;" },
      action: { buttons: [] },
    })
    expect(message?.seen).toBe(false)
    expect(message?.lastSeenDate).toBeUndefined()
  })

  test('the email content is the rendered block array, trimmed, each with a url', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Mail', [
      email(
        ' Password reset for {{firstName}} ',
        'This are the text contents of the template for {{firstName}}'
      ),
    ])
    await trigger(mock.app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', email: 'u1@x.io' },
      transactionId: 'tx',
      payload: { firstName: 'Testing of User Name' },
    })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message?.subject).toBe('Password reset for Testing of User Name')
    expect(message?.content).toEqual([
      {
        type: 'text',
        content: 'This are the text contents of the template for Testing of User Name',
        url: '',
      },
    ])
    expect(message?.cta).toEqual({ action: { buttons: [] } })
  })

  test("Novu's helpers render", async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Helpers', [
      inApp(
        '{{uppercase name}} {{titlecase title}} {{pluralize count "item" "items"}} {{numberFormat amount}} {{dateFormat when "yyyy-MM-dd HH:mm"}} {{#equals a b}}same{{/equals}} {{json list}}'
      ),
    ])
    await trigger(mock.app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      payload: {
        name: 'ada',
        title: 'hello wORLD',
        count: 2,
        amount: 1234.5,
        when: '2025-01-02T03:04:05.000Z',
        a: 1,
        b: '1',
        list: [1],
      },
    })
    const [message] = await messagesOf(mock.app, 'tx')
    expect(message?.content).toBe('ADA Hello World items 1,234.50 2025-01-02 03:04 same [1]')
  })

  test('a template that fails to render creates no message', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Broken', [inApp('{{uppercase count}}')])
    const res = await trigger(mock.app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      payload: { count: 5 },
    })
    expect(res.body.data.status).toBe('processed')
    expect(await messagesOf(mock.app, 'tx')).toEqual([])
  })

  test('a channel without an active integration gets no message', async () => {
    const mock = triggerMock('2026-08')
    await mock.admin.loadScenario({
      name: 'in-app-only',
      data: { integrations: [{ channel: 'in_app', providerId: 'novu' }] },
    })
    const wf = await createWorkflow(mock.app, 'Two', [inApp('a'), email('s', 'b')])
    await trigger(mock.app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', email: 'u1@x.io' },
      transactionId: 'tx',
    })
    expect((await messagesOf(mock.app, 'tx')).map((m) => m.channel)).toEqual(['in_app'])
  })

  test('chat and push send one message per subscriber channel with an active integration', async () => {
    const mock = triggerMock('2026-08')
    await mock.admin.loadScenario({
      name: 'chat-push',
      data: {
        integrations: [
          { channel: 'chat', providerId: 'slack' },
          { channel: 'push', providerId: 'fcm' },
        ],
      },
    })
    const wf = await createWorkflow(mock.app, 'Chat', [
      { template: { type: 'chat', content: 'Chat {{x}}' } },
      { template: { type: 'push', title: 'T {{x}}', content: 'Push {{x}}' } },
    ])
    await trigger(mock.app, {
      name: wf.identifier,
      to: {
        subscriberId: 'u1',
        channels: [
          { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/1' } },
          { providerId: 'fcm', credentials: { deviceTokens: ['t1'] } },
          { providerId: 'discord', credentials: { webhookUrl: 'https://hooks.example/2' } },
        ],
      },
      transactionId: 'tx',
      payload: { x: 1 },
    })
    const messages = await messagesOf(mock.app, 'tx')
    expect(messages.map((m) => [m.channel, m.providerId]).sort()).toEqual([
      ['chat', 'slack'],
      ['push', 'fcm'],
    ])
    expect(messages.find((m) => m.channel === 'push')).toMatchObject({
      title: 'T 1',
      content: 'Push 1',
      deviceTokens: ['t1'],
    })
  })

  test('an inactive step sends nothing', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Partly', [
      inApp('a'),
      { ...email('s', 'b'), active: false },
    ])
    await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect((await messagesOf(mock.app, 'tx')).map((m) => m.channel)).toEqual(['in_app'])
  })

  test('messages and their subscriber list in the newer population for @novu/api', async () => {
    const { app, wf } = await withWorkflow('2026-08')
    await trigger(app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', firstName: 'Ada' },
      transactionId: 'tx',
    })
    const [message] = await allMessages(app)
    expect(Object.keys(message?.subscriber ?? {})).toEqual([
      '_id',
      'firstName',
      'subscriberId',
      'createdAt',
      'updatedAt',
      '_organizationId',
      '_environmentId',
      'deleted',
      'id',
    ])
  })
})
