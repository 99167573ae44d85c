// Issue 18, findings 5 and 6: requests whose work grew with the square of their input (or
// whose Liquid filters sat outside liquidjs' allocation limit). Each test replays one at a size
// the old code took minutes over (past the test timeout) and checks the answer. The growth
// itself is measured by bench/quadratic.mjs.
import { describe, expect, test } from 'vitest'
import { request, type Requestable } from './helpers.js'
import {
  createWorkflow,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
  type StepInput,
} from './trigger-helpers.js'

type Obj = Record<string, unknown>

async function createV2(app: Requestable, steps: Obj[]): Promise<string> {
  const res = await request(app, 'POST', '/v2/workflows', {
    body: { name: 'Quadratic', workflowId: 'quadratic', steps },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return 'quadratic'
}

const ANN = { subscriberId: 'ann', email: 'ann@example.com', phone: '+15550100' }
const smsAfter = { name: 'After', type: 'sms', controlValues: { body: 'after' } }

async function channelsOf(app: Requestable, name: string, payload: Obj = {}) {
  const res = await trigger(app, { name, to: ANN, payload, transactionId: 'tx' })
  expect(res.status).toBe(201)
  return (await messagesOf(app, 'tx')).map((m) => m.channel).sort()
}

describe('the email renderer', () => {
  test('an email whose body renders 90,000 unclosed end tags is sanitised and sent', async () => {
    const { app } = triggerMock('2026-08')
    const body = '<p>a</p>{% for i in (1..90000) %}</a/{% endfor %}<b>x</b></i/ >'
    const name = await createV2(app, [
      { name: 'Mail', type: 'email', controlValues: { subject: 'S', body } },
    ])
    await trigger(app, { name, to: ANN, transactionId: 'tx' })
    const [email] = await messagesOf(app, 'tx')
    // `</a/…<b>` closes at the first `>`, as a browser reads it; the sanitiser keeps the rest.
    expect(email).toMatchObject({ channel: 'email', content: '<p>a</p>x' })
  })

  test('a block-editor loop whose button text opens an output with 4,000 spaces fails the email alone', async () => {
    const { app } = triggerMock('2026-08')
    const button = { type: 'button', attrs: { text: `{{${' '.repeat(4000)}x`, url: '/' } }
    const doc = {
      type: 'doc',
      content: [{ type: 'repeat', attrs: { each: 'payload.items' }, content: [button] }],
    }
    const name = await createV2(app, [
      { name: 'Mail', type: 'email', controlValues: { subject: 'S', body: JSON.stringify(doc) } },
      smsAfter,
    ])
    expect(await channelsOf(app, name, { items: [1] })).toEqual(['sms'])
  })
})

describe('digests, delays and cancels', () => {
  const digest = (amount: number): StepInput => ({
    template: { type: 'digest' },
    metadata: { type: 'regular', amount, unit: 'minutes' },
  })
  const advance = (app: Requestable, by: string) =>
    request(app, 'POST', '/__admin/clock', { key: null, body: { advance: by } })

  test('the clock passing 5,000 digests runs each once, and each subscriber gets its digest', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await createWorkflow(app, 'Digest', [
      digest(5),
      inApp('{{step.total_count}} events'),
    ])
    const to = Array.from({ length: 5000 }, (_, i) => `s${i}`)
    await trigger(app, { name: wf.identifier, to, payload: {}, transactionId: 'many' })
    await trigger(app, { name: wf.identifier, to: 's4999', payload: {}, transactionId: 'one' })
    const moved = await advance(app, '10m')
    expect(moved.body.data).toMatchObject({ ran: 5000, pending: 0 })
    const last = await request(app, 'GET', '/v1/messages?subscriberId=s4999')
    expect(last.body.data.map((m: Obj) => m.content)).toEqual(['2 events'])
  })

  test('canceling 5,000 delayed jobs of a transaction leaves nothing to run', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await createWorkflow(app, 'Later', [
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      inApp('later'),
    ])
    const to = Array.from({ length: 5000 }, (_, i) => `s${i}`)
    await trigger(app, { name: wf.identifier, to, payload: {}, transactionId: 'tx' })
    const res = await request(app, 'DELETE', '/v1/events/trigger/tx')
    expect(res.body).toEqual({ data: true })
    expect((await advance(app, '10m')).body.data).toMatchObject({ ran: 0, pending: 0 })
    expect(await messagesOf(app, 'tx')).toEqual([])
  })
})

test('a trigger naming 5,000 topics 40 times each reaches their subscribers once, exclusions from every mention kept', async () => {
  const { app } = triggerMock('2026-08')
  const wf = await createWorkflow(app, 'Topics', [inApp('Hi')])
  for (const subscriberId of ['ann', 'bob', 'cy', 'dee'])
    await request(app, 'POST', '/v1/subscribers', { body: { subscriberId } })
  for (let i = 0; i < 5000; i++)
    await request(app, 'POST', '/v1/topics', { body: { key: `t${i}`, name: `T${i}` } })
  for (const [key, subscribers] of [
    ['t0', ['ann', 'bob']],
    ['t4999', ['bob', 'cy', 'dee']],
  ] as const)
    await request(app, 'POST', `/v1/topics/${key}/subscribers`, { body: { subscribers } })
  const to: Obj[] = []
  for (let round = 0; round < 40; round++)
    for (let i = 0; i < 5000; i++) to.push({ type: 'Topic', topicKey: `t${i}` })
  to.push({ type: 'Topic', topicKey: 't4999', exclude: ['cy'] })
  const res = await trigger(app, { name: wf.identifier, to, payload: {}, transactionId: 'tx' })
  expect(res.status).toBe(201)
  const reached = (await messagesOf(app, 'tx')).map((m) => m.subscriber?.subscriberId as string)
  expect(reached.sort()).toEqual(['ann', 'bob', 'dee'])
})

describe("the mock's own Liquid filters count against liquidjs' allocation limit", () => {
  const names = Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i}` }))

  test.each([
    ['json', '{{ payload | json }}'],
    ['inspect', '{{ payload | inspect }}'],
    ['digest', "{{ payload.names | digest: 2, 'name' }}"],
    ['toSentence', "{{ payload.names | toSentence: 'name' }}"],
  ])(
    'a loop of %s over a large payload fails its step at the limit, the next step still sent',
    async (_filter, output) => {
      const { app } = triggerMock('2026-08')
      const name = await createV2(app, [
        {
          name: 'Loop',
          type: 'in_app',
          controlValues: { body: `{% for i in (1..99999) %}${output}{% endfor %}` },
        },
        smsAfter,
      ])
      expect(await channelsOf(app, name, { names })).toEqual(['sms'])
    }
  )

  test('within the limit the filters render as before', async () => {
    const { app } = triggerMock('2026-08')
    const body =
      "{{ payload.names | digest: 2, 'name' }} / {{ payload.names | toSentence: 'name', 1 }} / {{ payload.names | size }}"
    const name = await createV2(app, [{ name: 'Once', type: 'in_app', controlValues: { body } }])
    await trigger(app, { name, to: ANN, payload: { names }, transactionId: 'tx' })
    const [message] = await messagesOf(app, 'tx')
    expect(message?.content).toBe('n0, n1 and 19998 others / n0 and 19999 others / 20000')
  })
})
