import { describe, expect, test } from 'vitest'
import { request, type Requestable } from '../../../test/helpers.js'
import {
  FIXED_AT,
  createWorkflow,
  fixedClockMock,
  inApp,
  messagesOf,
  sms,
  trigger,
  triggerMock,
  type StepInput,
} from '../../../test/trigger-helpers.js'

// Delay and digest steps wait on the environment's clock; POST /__admin/clock moves it.

const delay = (amount: number, unit = 'minutes'): StepInput => ({
  template: { type: 'delay' },
  metadata: { type: 'regular', amount, unit },
})
const digest = (amount: number, extra: Record<string, unknown> = {}): StepInput => ({
  template: { type: 'digest' },
  metadata: { type: 'regular', amount, unit: 'minutes', ...extra },
})

const advance = (app: Requestable, body: Record<string, unknown>, apiKey?: string) =>
  request(app, 'POST', `/__admin/clock${apiKey ? `?apiKey=${apiKey}` : ''}`, { key: null, body })

const cancel = (app: Requestable, transactionId: string) =>
  request(app, 'DELETE', `/v1/events/trigger/${encodeURIComponent(transactionId)}`)

const channels = async (app: Requestable, tx: string) =>
  (await messagesOf(app, tx)).map((m) => m.channel).sort()

describe('delay', () => {
  test('steps before a delay run at once, the ones after when the clock passes it', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Later', [
      inApp('now'),
      delay(5),
      sms('later'),
      inApp('later'),
    ])
    await trigger(app, {
      name: wf.identifier,
      to: { subscriberId: 'u1', phone: '+1' },
      transactionId: 'tx',
    })
    expect(await channels(app, 'tx')).toEqual(['in_app'])
    const early = await advance(app, { advance: '4m' })
    expect(early.body.data).toMatchObject({ ran: 0, pending: 1 })
    expect(await channels(app, 'tx')).toEqual(['in_app'])
    const due = await advance(app, { advance: 60_000 })
    expect(due.status).toBe(200)
    expect(due.body.data).toEqual({
      now: '2025-03-01T10:05:00.000Z',
      fixed: true,
      pending: 0,
      ran: 1,
    })
    expect(await channels(app, 'tx')).toEqual(['in_app', 'in_app', 'sms'])
  })

  test('messages after a delay carry its end as their time', async () => {
    const { app } = await fixedClockMock('2024-10')
    const wf = await createWorkflow(app, 'Later', [delay(30, 'seconds'), inApp('later')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    await advance(app, { to: '2025-03-01T11:00:00.000Z' })
    const [message] = await messagesOf(app, 'tx')
    expect(message?.createdAt).toBe('2025-03-01T10:00:30.000Z')
  })

  test('overrides.delay replaces the wait', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Later', [delay(1, 'days'), inApp('later')])
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'tx',
      overrides: { delay: { amount: 10, unit: 'seconds' } },
    })
    await advance(app, { advance: '10s' })
    expect(await channels(app, 'tx')).toEqual(['in_app'])
  })

  test('a scheduled delay waits for the payload date; a past date cancels the chain', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'At', [
      { template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } },
      inApp('at'),
    ])
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'future',
      payload: { sendAt: '2025-03-01T12:00:00.000Z' },
    })
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'past',
      payload: { sendAt: '2025-03-01T09:00:00.000Z' },
    })
    await advance(app, { to: '2025-03-01T12:00:00.000Z' })
    expect(await channels(app, 'future')).toEqual(['in_app'])
    expect(await channels(app, 'past')).toEqual([])
  })

  test('2024-10 refuses a scheduled delay whose payload lacks the date', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'At', [
      { template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } },
      inApp('at'),
    ])
    const res = await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'payload is missing required key(s) and type(s): sendAt (ISO Date)'
    )
  })
})

describe('digest', () => {
  test('a second trigger merges into the running digest; its messages carry the first transaction', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Digest', [
      digest(10),
      inApp(
        '{{step.total_count}} events: {{#each step.events}}{{n}} {{/each}}{{#if step.digest}}digested{{/if}}'
      ),
    ])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'first', payload: { n: 1 } })
    await advance(app, { advance: '5m' })
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'second',
      payload: { n: 2 },
    })
    await advance(app, { advance: '5m' })
    const first = await messagesOf(app, 'first')
    expect(first.map((m) => m.content)).toEqual(['2 events: 1 2 digested'])
    expect(await messagesOf(app, 'second')).toEqual([])
  })

  test('the digest key keeps groups apart', async () => {
    const { app } = await fixedClockMock('2024-10')
    const wf = await createWorkflow(app, 'Digest', [
      digest(10, { digestKey: 'group' }),
      inApp('{{step.total_count}}'),
    ])
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'a',
      payload: { group: 'x' },
    })
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'b',
      payload: { group: 'y' },
    })
    await advance(app, { advance: '10m' })
    expect((await messagesOf(app, 'a')).map((m) => m.content)).toEqual(['1'])
    expect((await messagesOf(app, 'b')).map((m) => m.content)).toEqual(['1'])
  })

  test('the activity feed shows the merged job and the digested notification', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Digest', [digest(10), inApp('x')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'first' })
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'second' })
    const feed = await request(app, 'GET', '/v1/notifications?transactionId=second')
    const [item] = feed.body.data
    expect(item._digestedNotificationId).toBeDefined()
    expect(item.jobs.map((j: { type: string; status: string }) => [j.type, j.status])).toEqual([
      ['digest', 'merged'],
      ['in_app', 'merged'],
    ])
  })
})

describe('DELETE /v1/events/trigger/{transactionId}', () => {
  test.each(['2026-08', '2024-10'] as const)(
    '%s answers true while a delay waits, cancels the later steps, then false',
    async (generation) => {
      const { app } = await fixedClockMock(generation)
      const wf = await createWorkflow(app, 'Later', [inApp('now'), delay(5), inApp('later')])
      await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
      const first = await cancel(app, 'tx')
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ data: true })
      await advance(app, { advance: '1h' })
      expect(await channels(app, 'tx')).toEqual(['in_app'])
      expect((await cancel(app, 'tx')).body).toEqual({ data: false })
    }
  )

  test('answers false for an unknown transaction and for one without a wait', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Now', [inApp('now')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect((await cancel(app, 'tx')).body).toEqual({ data: false })
    expect((await cancel(app, 'nobody')).body).toEqual({ data: false })
  })

  test('answers false once the delay has run', async () => {
    const { app } = await fixedClockMock('2024-10')
    const wf = await createWorkflow(app, 'Later', [delay(1), inApp('later')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    await advance(app, { advance: '1m' })
    expect((await cancel(app, 'tx')).body).toEqual({ data: false })
  })

  test('canceling the main digest hands it to the transaction merged into it', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Digest', [digest(10), inApp('{{step.total_count}}')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'first', payload: { n: 1 } })
    await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      transactionId: 'second',
      payload: { n: 2 },
    })
    expect((await cancel(app, 'first')).body).toEqual({ data: true })
    await advance(app, { advance: '10m' })
    expect(await messagesOf(app, 'first')).toEqual([])
    expect((await messagesOf(app, 'second')).map((m) => m.content)).toEqual(['1'])
  })

  test('messages sent before the delay stay and can be deleted by transaction', async () => {
    const { app } = await fixedClockMock('2026-08')
    const wf = await createWorkflow(app, 'Later', [inApp('now'), delay(5), inApp('later')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    await cancel(app, 'tx')
    const res = await request(app, 'DELETE', '/v1/messages/transaction/tx')
    expect(res.status).toBe(204)
    expect(await messagesOf(app, 'tx')).toEqual([])
  })
})

describe('POST /__admin/clock', () => {
  test('moves one key alone and leaves the others where they were', async () => {
    const { app } = await fixedClockMock('2026-08')
    const moved = await advance(app, { advance: '2h' }, 'one')
    expect(moved.body.data.now).toBe('2025-03-01T12:00:00.000Z')
    const other = await request(app, 'GET', '/__admin/clock?apiKey=two', { key: null })
    expect(other.body.data.now).toBe(FIXED_AT)
  })

  test('moves every key, new ones included, and a reset rewinds it', async () => {
    const { app } = await fixedClockMock('2024-10')
    await advance(app, { advance: '1d' })
    const later = await request(app, 'GET', '/__admin/clock?apiKey=fresh', { key: null })
    expect(later.body.data.now).toBe('2025-03-02T10:00:00.000Z')
    await request(app, 'POST', '/__admin/reset', { key: null })
    const rewound = await request(app, 'GET', '/__admin/clock', { key: null })
    expect(rewound.body.data.now).toBe(FIXED_AT)
  })

  test('refuses to go back in time', async () => {
    const { app } = await fixedClockMock('2026-08')
    const res = await advance(app, { to: '2025-01-01T00:00:00.000Z' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'the clock only moves forward: 2025-01-01T00:00:00.000Z is before its time, 2025-03-01T10:00:00.000Z'
    )
  })

  test.each([{ advance: 'soon' }, {}, { advance: '1m', to: FIXED_AT }])(
    'refuses %j',
    async (body) => {
      const { app } = await fixedClockMock('2026-08')
      const res = await advance(app, body)
      expect([400, 422]).toContain(res.status)
    }
  )

  test('a real clock moves forward too', async () => {
    const { app } = triggerMock('2026-08')
    const before = Date.now()
    const res = await advance(app, { advance: '1h' }, 'k')
    expect(Date.parse(res.body.data.now)).toBeGreaterThanOrEqual(before + 3_600_000)
    expect(res.body.data.fixed).toBe(false)
  })

  test('the admin client moves the clock', async () => {
    const mock = await fixedClockMock('2026-08')
    const view = await mock.admin.forKey('k').advanceClock('90s')
    expect(view).toEqual({ now: '2025-03-01T10:01:30.000Z', fixed: true, pending: 0, ran: 0 })
    expect((await mock.admin.clock('k')).now).toBe('2025-03-01T10:01:30.000Z')
  })
})
