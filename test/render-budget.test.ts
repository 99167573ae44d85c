import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, type Requestable } from './helpers.js'
import {
  createWorkflow,
  FIXED_AT,
  GENERATIONS,
  inApp,
  recipients,
  snapshot,
  trigger,
  type StepInput,
} from './trigger-helpers.js'

// What a trigger renders is counted (issue 18, finding 2): a loop over the payload renders far
// more than its template, once per recipient and step. Past the memory budget the trigger is
// refused with its 403 and leaves nothing behind; past what one request may render, a 400
// names that limit; steps the clock runs later are counted too, and fail rather than overfill.

type Obj = Record<string, unknown>
const BUDGET = /memory budget of \d+ MB.*the records this trigger creates.*--max-memory-mb/

const smallMock = (apiGeneration: (typeof GENERATIONS)[number], maxMemoryMb = 24) =>
  createMock({ apiGeneration, scenario: 'empty', maxMemoryMb, journalSize: 0, logLevel: 'silent' })

/** 50 items of 900 characters: a message that loops over them renders about 45 kB. */
const ITEMS = Array.from({ length: 50 }, (_, i) => ({ title: `${i}:${'x'.repeat(896)}` }))
const LOOP = '{{#each items}}<p>{{title}}</p>{{/each}}'
async function createV2(app: Requestable, body: string): Promise<string> {
  const res = await request(app, 'POST', '/v2/workflows', {
    body: {
      name: 'Loop',
      workflowId: 'loop',
      steps: [{ name: 'In app', type: 'in_app', controlValues: { body } }],
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data.workflowId as string
}

describe.each(GENERATIONS)('%s', (generation) => {
  test('a trigger whose loops render past the memory budget answers its 403 and changes nothing', async () => {
    const mock = smallMock(generation)
    const wf = await createWorkflow(mock.app, 'Loop', [inApp(LOOP)])
    const known = await trigger(mock.app, {
      name: wf.identifier,
      to: { subscriberId: 'known', firstName: 'Old' },
      payload: { items: [] },
    })
    expect(known.status).toBe(201)
    // Messages by transaction are indexed once a client asks for them: the index forgets too.
    await request(mock.app, 'GET', '/v1/messages?transactionId=refused')
    const before = await snapshot(mock)
    const to = [{ subscriberId: 'known', firstName: 'New' }, ...recipients(600)]
    const res = await trigger(mock.app, {
      name: wf.identifier,
      to,
      payload: { items: ITEMS },
      transactionId: 'refused',
    })
    expect(res.status).toBe(403)
    expect(res.body.message).toMatch(BUDGET)
    expect(await snapshot(mock)).toBe(before)
    const left = await request(mock.app, 'GET', '/v1/messages?transactionId=refused')
    expect(left.body.data).toEqual([])
    const budget = mock.state.environments.budget
    expect(budget.used()).toBeLessThanOrEqual(budget.limit)
    const other = await request(mock.app, 'GET', '/v1/subscribers', { key: 'other-key' })
    expect(other.status).toBe(200)
  })

  test('a refused trigger leaves the subscribers it would have created or changed as they were', async () => {
    const mock = smallMock(generation)
    const wf = await createWorkflow(mock.app, 'Loop', [inApp(LOOP)])
    await trigger(mock.app, {
      name: wf.identifier,
      to: { subscriberId: 'known', firstName: 'Old' },
      payload: { items: [] },
    })
    const res = await trigger(mock.app, {
      name: wf.identifier,
      to: [{ subscriberId: 'known', firstName: 'New' }, ...recipients(600)],
      payload: { items: ITEMS },
    })
    expect(res.status).toBe(403)
    const known = await request(mock.app, 'GET', '/v1/subscribers/known')
    expect(known.body.data.firstName).toBe('Old')
    expect((await request(mock.app, 'GET', '/v1/subscribers/s0')).status).not.toBe(200)
  })

  test.each([
    {
      limit: '200,000 loop iterations',
      content: '{{#each items}}x{{/each}}',
      recipients: 201,
      payload: { items: Array.from({ length: 1000 }, (_, i) => i) },
      message: /renders more than 200000 loop iterations.*novu-mock's limit/,
    },
    {
      limit: '32 MB of rendered text',
      content: '{{#each items}}{{../big}}{{/each}}',
      recipients: 40,
      payload: { items: [1, 2, 3, 4, 5, 6, 7, 8, 9], big: 'y'.repeat(100_000) },
      message: /renders more than 33554432 characters.*novu-mock's limit/,
    },
  ])('one trigger request renders at most $limit: past it a 400 names the limit', async (one) => {
    const mock = smallMock(generation, 256)
    const wf = await createWorkflow(mock.app, 'Loop', [inApp(one.content)])
    const before = await snapshot(mock)
    const to = recipients(one.recipients)
    const res = await trigger(mock.app, { name: wf.identifier, to, payload: one.payload })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(one.message)
    expect(await snapshot(mock)).toBe(before)
  })

  test('the events of a bulk trigger share one render allowance: the one past it is an error, the others stand', async () => {
    const mock = smallMock(generation, 256)
    const wf = await createWorkflow(mock.app, 'Loop', [inApp('{{#each items}}x{{/each}}')])
    const event = (n: number) => ({
      name: wf.identifier,
      to: recipients(80, `e${n}-`),
      payload: { items: Array.from({ length: 1000 }, (_, i) => i) },
      transactionId: `bulk-${n}`,
    })
    const res = await request(mock.app, 'POST', '/v1/events/trigger/bulk', {
      body: { events: [event(1), event(2), event(3)] },
    })
    expect(res.status).toBe(201)
    expect(res.body.data.map((r: Obj) => r.status)).toEqual(['processed', 'processed', 'error'])
    expect(String(res.body.data[2].error)).toMatch(/200000 loop iterations/)
    const third = await request(mock.app, 'GET', '/v1/messages?transactionId=bulk-3')
    expect(third.body.data).toEqual([])
    const first = await request(mock.app, 'GET', '/v1/messages?transactionId=bulk-1&limit=100')
    expect(first.body.data).toHaveLength(80)
  })

  test('a broadcast is counted as a trigger: past the memory budget it answers the 403', async () => {
    const mock = smallMock(generation)
    const wf = await createWorkflow(mock.app, 'Loop', [inApp(LOOP)])
    const made = await trigger(mock.app, {
      name: wf.identifier,
      to: recipients(600),
      payload: { items: [] },
    })
    expect(made.status).toBe(201)
    const before = await snapshot(mock)
    const res = await request(mock.app, 'POST', '/v1/events/trigger/broadcast', {
      body: { name: wf.identifier, payload: { items: ITEMS } },
    })
    expect(res.status).toBe(403)
    expect(res.body.message).toMatch(BUDGET)
    expect(await snapshot(mock)).toBe(before)
  })
})

const delay: StepInput = {
  template: { type: 'delay' },
  metadata: { type: 'regular', amount: 1, unit: 'hours' },
}

test('steps the clock runs later are counted: past the budget they fail with a detail naming it and the process holds', async () => {
  const mock = smallMock('2026-08')
  await mock.admin.loadScenario({ name: 'fixed', clock: { mode: 'fixed', at: FIXED_AT } })
  const wf = await createWorkflow(mock.app, 'Later', [delay, inApp(LOOP)])
  const res = await trigger(mock.app, {
    name: wf.identifier,
    to: recipients(600),
    payload: { items: ITEMS },
    transactionId: 'later',
  })
  expect(res.status).toBe(201)
  const moved = await request(mock.app, 'POST', '/__admin/clock', {
    key: null,
    body: { advance: '2h' },
  })
  expect(moved.status).toBe(200)
  const budget = mock.state.environments.budget
  expect(budget.used()).toBeLessThanOrEqual(budget.limit)
  const feed = await request(mock.app, 'GET', '/v1/notifications?transactionId=later')
  expect(feed.status).toBe(200)
  const details = (feed.body.data as Obj[]).flatMap((n) =>
    (n.jobs as { executionDetails: { detail: string; raw: string | null }[] }[]).flatMap(
      (j) => j.executionDetails
    )
  )
  const failed = details.find((d) => d.detail === 'Message content could not be generated')
  expect(failed?.raw).toMatch(/memory budget of \d+ MB.*the message this step renders/)
})

test('a dashboard workflow whose Liquid loops render past the memory budget answers its 403 and changes nothing', async () => {
  const mock = smallMock('2026-08')
  const name = await createV2(
    mock.app,
    '{% for i in payload.items %}<p>{{ i.title }}</p>{% endfor %}'
  )
  const before = await snapshot(mock)
  const res = await trigger(mock.app, { name, to: recipients(600), payload: { items: ITEMS } })
  expect(res.status).toBe(403)
  expect(res.body.message).toMatch(BUDGET)
  expect(await snapshot(mock)).toBe(before)
})
