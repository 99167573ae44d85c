import { describe, expect, test } from 'vitest'
import { request, type Requestable } from '../../../test/helpers.js'
import {
  allMessages,
  createWorkflow,
  inApp,
  messagesOf,
  snapshot,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// Who a trigger reaches: subscribers, topics, the actor; upserts; bulk and broadcast.

async function subscribersOf(app: Requestable, transactionId: string) {
  return (await messagesOf(app, transactionId)).map((m) => m.subscriber.subscriberId).sort()
}

async function topicWith(app: Requestable, key: string, members: string[]) {
  for (const subscriberId of members)
    expect((await request(app, 'POST', '/v1/subscribers', { body: { subscriberId } })).status).toBe(
      201
    )
  expect((await request(app, 'POST', '/v1/topics', { body: { key, name: key } })).status).toBe(201)
  const added = await request(app, 'POST', `/v1/topics/${key}/subscribers`, {
    body: { subscribers: members },
  })
  expect(added.status).toBe(200)
}

async function setup(generation: '2026-08' | '2024-10') {
  const mock = triggerMock(generation)
  const wf = await createWorkflow(mock.app, 'Ping', [inApp('Ping {{subscriber.subscriberId}}')])
  return { ...mock, wf }
}

describe('recipients', () => {
  test('an unknown subscriberId given as a string is created', async () => {
    const { app, wf } = await setup('2026-08')
    await trigger(app, { name: wf.identifier, to: 'new-one', transactionId: 'tx' })
    const res = await request(app, 'GET', '/v1/subscribers/new-one')
    expect(res.status).toBe(200)
    expect(await subscribersOf(app, 'tx')).toEqual(['new-one'])
  })

  test('a subscriber object is created with its fields', async () => {
    const { app, wf } = await setup('2024-10')
    await trigger(app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', firstName: 'Ada', email: 'ada@x.io', data: { plan: 'pro' } },
    })
    const res = await request(app, 'GET', '/v1/subscribers/u1')
    expect(res.body.data).toMatchObject({
      firstName: 'Ada',
      email: 'ada@x.io',
      data: { plan: 'pro' },
    })
  })

  test('the last object of a repeated subscriberId wins and it gets one message', async () => {
    const { app, wf } = await setup('2026-08')
    await trigger(app, {
      name: wf.identifier,
      to: [{ subscriberId: 'u1', firstName: 'A' }, 'u2', { subscriberId: 'u1', firstName: 'B' }],
      transactionId: 'tx',
    })
    expect(await subscribersOf(app, 'tx')).toEqual(['u1', 'u2'])
    expect((await request(app, 'GET', '/v1/subscribers/u1')).body.data.firstName).toBe('B')
  })

  test('omitting email keeps it; data is replaced', async () => {
    const { app, wf } = await setup('2024-10')
    await trigger(app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', email: 'a@x.io', data: { a: 1, b: 2 } },
    })
    await trigger(app, { name: wf.identifier, to: { subscriberId: 'u1', data: { c: 3 } } })
    const res = await request(app, 'GET', '/v1/subscribers/u1')
    expect(res.body.data).toMatchObject({ email: 'a@x.io', data: { c: 3 } })
  })

  test('null clears a field since 2025, and only email in 2024-10', async () => {
    for (const [generation, expected] of [
      ['2024-10', { firstName: 'Ada' }],
      ['2026-08', { firstName: null }],
    ] as const) {
      const { app, wf } = await setup(generation)
      await trigger(app, {
        name: wf.identifier,
        to: { subscriberId: 'u1', firstName: 'Ada', email: 'a@x.io' },
      })
      await trigger(app, {
        name: wf.identifier,
        to: { subscriberId: 'u1', firstName: null, email: null },
      })
      const res = await request(app, 'GET', '/v1/subscribers/u1')
      expect(res.body.data, generation).toMatchObject({ ...expected, email: null })
    }
  })

  test('2024-10: a recipient without subscriberId aborts the whole trigger, still 201', async () => {
    const { app, wf } = await setup('2024-10')
    const res = await trigger(app, {
      name: wf.identifier,
      to: ['u1', { email: 'x@y.io' }],
      transactionId: 'tx',
    })
    expect(res.status).toBe(201)
    expect(res.body.data.status).toBe('processed')
    expect(await messagesOf(app, 'tx')).toEqual([])
  })

  test('a recipient whose fields the worker refuses is dropped alone', async () => {
    const { app, wf } = await setup('2026-08')
    await trigger(app, {
      name: wf.identifier,
      to: ['u1', { subscriberId: 'u2', email: 'not-an-email' }],
      transactionId: 'tx',
    })
    expect(await subscribersOf(app, 'tx')).toEqual(['u1'])
    expect((await request(app, 'GET', '/v1/subscribers/u2')).status).toBe(404)
  })

  test('topic members are notified once, the singles first and not twice', async () => {
    const { app, wf } = await setup('2026-08')
    await topicWith(app, 'team-a', ['m1', 'm2'])
    await topicWith(app, 'team-b', ['m2', 'm3'])
    await trigger(app, {
      name: wf.identifier,
      to: ['m1', { type: 'Topic', topicKey: 'team-a' }, { type: 'Topic', topicKey: 'team-b' }],
      transactionId: 'tx',
    })
    expect(await subscribersOf(app, 'tx')).toEqual(['m1', 'm2', 'm3'])
  })

  test('the actor is left out of the topic fan-out but notified when listed', async () => {
    const { app, wf } = await setup('2024-10')
    await topicWith(app, 'team', ['a', 'b', 'c'])
    await trigger(app, {
      name: wf.identifier,
      to: { type: 'Topic', topicKey: 'team' },
      actor: 'a',
      transactionId: 'tx1',
    })
    expect(await subscribersOf(app, 'tx1')).toEqual(['b', 'c'])
    await trigger(app, {
      name: wf.identifier,
      to: ['a', { type: 'Topic', topicKey: 'team' }],
      actor: { subscriberId: 'a' },
      transactionId: 'tx2',
    })
    expect(await subscribersOf(app, 'tx2')).toEqual(['a', 'b', 'c'])
  })

  test('2026-08 honours a topic exclude list; 2024-10 ignores it', async () => {
    for (const [generation, expected] of [
      ['2026-08', ['a']],
      ['2024-10', ['a', 'b']],
    ] as const) {
      const { app, wf } = await setup(generation)
      await topicWith(app, 'team', ['a', 'b'])
      await trigger(app, {
        name: wf.identifier,
        to: { type: 'Topic', topicKey: 'team', exclude: ['b'] },
        transactionId: 'tx',
      })
      expect(await subscribersOf(app, 'tx'), generation).toEqual(expected)
    }
  })

  test('an unknown topic stops the fan-out in 2024-10 but not since', async () => {
    for (const [generation, expected] of [
      ['2024-10', ['single']],
      ['2026-08', ['member', 'single']],
    ] as const) {
      const { app, wf } = await setup(generation)
      await topicWith(app, 'team', ['member'])
      await trigger(app, {
        name: wf.identifier,
        to: ['single', { type: 'Topic', topicKey: 'team' }, { type: 'Topic', topicKey: 'ghost' }],
        transactionId: 'tx',
      })
      expect(await subscribersOf(app, 'tx'), generation).toEqual(expected)
    }
  })

  test('2026-08 ignores a transaction id already used; 2024-10 lets it through', async () => {
    for (const [generation, count] of [
      ['2026-08', 1],
      ['2024-10', 2],
    ] as const) {
      const { app, wf } = await setup(generation)
      const first = await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'same' })
      const second = await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'same' })
      expect(second.body.data).toEqual(first.body.data)
      expect((await messagesOf(app, 'same')).length, generation).toBe(count)
    }
  })
})

describe('POST /v1/events/trigger/bulk', () => {
  const bulk = (app: Requestable, events: unknown) =>
    request(app, 'POST', '/v1/events/trigger/bulk', { body: { events } })

  test('answers 201 with one result per event, in order', async () => {
    const { app, wf } = await setup('2026-08')
    const res = await bulk(
      app,
      ['1111', '2222', '3333'].map((transactionId) => ({
        name: wf.identifier,
        to: 'u1',
        payload: {},
        transactionId,
      }))
    )
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual(
      ['1111', '2222', '3333'].map((transactionId) => ({
        acknowledged: true,
        status: 'processed',
        transactionId,
      }))
    )
  })

  test('an unknown workflow is an error element and the next event still runs', async () => {
    for (const [generation, extra] of [
      ['2026-08', { transactionId: 'bad' }],
      ['2024-10', {}],
    ] as const) {
      const { app, wf } = await setup(generation)
      const res = await bulk(app, [
        { name: 'ghost', to: 'u1', payload: {}, transactionId: 'bad' },
        { name: wf.identifier, to: 'u1', payload: {}, transactionId: 'good' },
      ])
      expect(res.body.data[0], generation).toEqual({
        acknowledged: true,
        status: 'error',
        error: ['workflow_not_found'],
        ...extra,
      })
      expect(res.body.data[1].status).toBe('processed')
    }
  })

  test('an event without payload fails as the command requires it', async () => {
    for (const [generation, error] of [
      ['2024-10', 'payload should not be null or undefined'],
      [
        '2026-08',
        'Validation failed for ParseEventRequestMulticastCommand: payload: payload should not be null or undefined',
      ],
    ] as const) {
      const { app, wf } = await setup(generation)
      const res = await bulk(app, [{ name: wf.identifier, to: 'u1' }])
      expect(res.body.data[0], generation).toMatchObject({ status: 'error', error: [error] })
    }
  })

  test('2024-10 reports an event without name and to per element', async () => {
    const { app } = await setup('2024-10')
    const res = await bulk(app, [{ payload: {} }])
    expect(res.status).toBe(201)
    expect(res.body.data[0].error).toEqual([
      'to should not be null or undefined',
      'identifier should not be null or undefined',
      'identifier must be a string',
    ])
  })

  test('2026-08 refuses the whole request when one event does not validate', async () => {
    const mock = await setup('2026-08')
    const before = await snapshot(mock)
    const res = await bulk(mock.app, [
      { name: mock.wf.identifier, to: 'u1', payload: {} },
      { name: mock.wf.identifier, to: { subscriberId: '' }, payload: {} },
    ])
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'events.1.to must be a non-empty subscriberId string, an object with a non-empty subscriberId, a topic object with a non-empty topicKey, or a non-empty array of those',
    ])
    expect(await snapshot(mock)).toBe(before)
  })

  test.each([
    ['2026-08', 422],
    ['2024-10', 400],
  ] as const)('%s refuses 101 events with %i and stores nothing', async (generation, status) => {
    const mock = await setup(generation)
    const before = await snapshot(mock)
    const events = Array.from({ length: 101 }, () => ({
      name: mock.wf.identifier,
      to: 'u1',
      payload: {},
    }))
    const res = await bulk(mock.app, events)
    expect(res.status).toBe(status)
    if (generation === '2026-08') {
      expect(res.body.message).toBe(
        'Validation failed for ProcessBulkTriggerCommand: events: events must contain no more than 100 elements'
      )
      expect(res.body.errors.events.messages).toEqual([
        'events must contain no more than 100 elements',
      ])
    } else expect(res.body.message).toEqual(['events must contain no more than 100 elements'])
    expect(await snapshot(mock)).toBe(before)
  })

  test.each([
    ['2026-08', {}, ['events should not be empty', 'events must be an array']],
    [
      '2024-10',
      {},
      [
        'events must contain no more than 100 elements',
        'events should not be empty',
        'events must be an array',
      ],
    ],
    ['2024-10', { events: [] }, ['events should not be empty']],
  ] as const)('%s refuses %j', async (generation, body, messages) => {
    const { app } = triggerMock(generation)
    const res = await request(app, 'POST', '/v1/events/trigger/bulk', { body })
    const got = generation === '2026-08' ? res.body.errors.general.messages : res.body.message
    expect(got).toEqual(messages)
  })
})

describe('POST /v1/events/trigger/broadcast', () => {
  const broadcast = (app: Requestable, body: unknown) =>
    request(app, 'POST', '/v1/events/trigger/broadcast', { body })

  test('notifies every subscriber of the environment', async () => {
    const { app, wf } = await setup('2026-08')
    for (const subscriberId of ['a', 'b', 'c'])
      await request(app, 'POST', '/v1/subscribers', { body: { subscriberId } })
    const res = await broadcast(app, { name: wf.identifier, payload: {}, transactionId: 'tx' })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ acknowledged: true, status: 'processed', transactionId: 'tx' })
    expect(await subscribersOf(app, 'tx')).toEqual(['a', 'b', 'c'])
  })

  test('2024-10 answers processed for an inactive workflow; 2026-08 its real status', async () => {
    for (const [generation, status] of [
      ['2024-10', 'processed'],
      ['2026-08', 'trigger_not_active'],
    ] as const) {
      const mock = triggerMock(generation)
      const wf = await createWorkflow(mock.app, 'Off', [inApp('x')], { active: false })
      const res = await broadcast(mock.app, { name: wf.identifier, payload: {} })
      expect(res.body.data.status, generation).toBe(status)
      expect(res.body.data.transactionId).toBeDefined()
    }
  })

  test('2026-08 leaves the actor out; 2024-10 notifies it', async () => {
    for (const [generation, expected] of [
      ['2026-08', ['b']],
      ['2024-10', ['a', 'b']],
    ] as const) {
      const { app, wf } = await setup(generation)
      for (const subscriberId of ['a', 'b'])
        await request(app, 'POST', '/v1/subscribers', { body: { subscriberId } })
      await broadcast(app, { name: wf.identifier, payload: {}, actor: 'a', transactionId: 'tx' })
      expect(await subscribersOf(app, 'tx'), generation).toEqual(expected)
    }
  })

  test('payload is required', async () => {
    const { app } = triggerMock('2024-10')
    const res = await broadcast(app, { name: 'x' })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['payload must be an object'])
  })

  test('an unknown workflow is still a 422', async () => {
    const { app } = triggerMock('2024-10')
    const res = await broadcast(app, { name: 'ghost', payload: {} })
    expect(res.status).toBe(422)
    expect(await allMessages(app)).toEqual([])
  })
})
