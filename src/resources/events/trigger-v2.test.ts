import { Novu } from '@novu/api'
import { describe, expect, test } from 'vitest'
import { startMock } from '../../server.js'
import { counted, request, type Requestable } from '../../../test/helpers.js'
import { LIQUID_LIMITS, liquidBlocksRendered } from '../../delivery/languages/liquid.js'
import {
  FIXED_AT,
  fixedClockMock,
  messagesOf,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// Workflows created through POST /v2/workflows trigger like v1 ones, their steps rendered as
// upstream's bridge renders them: Liquid on the control values (`{{ payload.x }}`), then each
// channel's output renderer. See bridge.ts.

type Obj = Record<string, unknown>
const step = (type: string, controlValues?: Obj, name = `${type} step`): Obj => ({
  name,
  type,
  ...(controlValues ? { controlValues } : {}),
})

async function createV2(app: Requestable, steps: Obj[], extra: Obj = {}): Promise<string> {
  const res = await request(app, 'POST', '/v2/workflows', {
    body: { name: 'Order Shipped', workflowId: 'order-shipped', steps, ...extra },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data.workflowId as string
}

const ANN = {
  subscriberId: 'ann',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  phone: '+15550100',
}

async function send(app: Requestable, name: string, payload: Obj = {}, transactionId = 'tx') {
  const res = await trigger(app, { name, to: ANN, payload, transactionId })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  expect(res.body.data.status).toBe('processed')
  return messagesOf(app, transactionId)
}

/** The execution details of the transaction's jobs, one list per job. */
async function detailsOf(app: Requestable, transactionId: string): Promise<string[][]> {
  const res = await request(app, 'GET', `/v1/notifications?transactionId=${transactionId}`)
  expect(res.status).toBe(200)
  const jobs = (res.body.data[0]?.jobs ?? []) as { executionDetails: { detail: string }[] }[]
  return jobs.map((j) => j.executionDetails.map((d) => d.detail))
}

const advance = (app: Requestable, by: string) =>
  request(app, 'POST', '/__admin/clock', { key: null, body: { advance: by } })

describe('in-app steps', () => {
  test('the subject and body render with Liquid on the payload and the subscriber', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        subject: 'Hi {{ subscriber.firstName }}',
        body: 'Order {{ payload.order.id }} ships to {{ payload.city | upcase }}',
      }),
    ])
    const [message] = await send(app, name, { order: { id: 42 }, city: 'Oslo' })
    expect(message).toMatchObject({
      channel: 'in_app',
      subject: 'Hi Ann',
      content: 'Order 42 ships to OSLO',
      stepId: 'in-app-step',
      templateIdentifier: 'order-shipped',
    })
  })

  test('payload keys are not at the top level, as they are for v1 workflows', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('in_app', { body: '[{{ id }}] [{{ payload.id }}]' })])
    const [message] = await send(app, name, { id: 7 })
    expect(message?.content).toBe('[] [7]')
  })

  test('the redirect and the two actions become the message cta, targets defaulted by url', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: 'Shipped',
        redirect: { url: 'https://shop.example/orders/{{ payload.id }}' },
        primaryAction: { label: 'Track {{ payload.id }}', redirect: { url: '/track' } },
        secondaryAction: { label: 'Dismiss' },
      }),
    ])
    const [message] = await send(app, name, { id: 9 })
    expect(message?.cta).toEqual({
      type: 'redirect',
      data: { url: 'https://shop.example/orders/9', target: '_blank' },
      action: {
        buttons: [
          { type: 'primary', content: 'Track 9', url: '/track', target: '_self' },
          { type: 'secondary', content: 'Dismiss' },
        ],
      },
    })
  })

  test('without a redirect or actions the cta is a bare redirect', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('in_app', { subject: 'Only a subject' })])
    const [message] = await send(app, name)
    expect(message).toMatchObject({
      subject: 'Only a subject',
      content: '',
      cta: { type: 'redirect', action: { buttons: [] } },
    })
    expect(message?.cta).not.toHaveProperty('data')
  })

  test('the avatar and data are kept on the message, data values rendered', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: 'Hi',
        avatar: 'https://cdn.example/{{ payload.user }}.png',
        data: { orderId: '{{ payload.id }}', kind: 'shipping' },
      }),
    ])
    const [message] = await send(app, name, { user: 'ann', id: 'A-1' })
    expect(message?.avatar).toBe('https://cdn.example/ann.png')
    expect(message?.data).toEqual({ orderId: 'A-1', kind: 'shipping' })
  })

  test('HTML in the fields is sanitised: scripts dropped, ampersands escaped', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: '<b>{{ payload.a }}</b><script>alert(1)</script> & more' }),
    ])
    const [message] = await send(app, name, { a: 'Tom & Jerry' })
    expect(message?.content).toBe('<b>Tom &amp; Jerry</b> &amp; more')
  })

  test('disableOutputSanitization keeps the rendered text as it is', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: '<i>{{ payload.a }}</i> & more', disableOutputSanitization: true }),
    ])
    const [message] = await send(app, name, { a: 'Tom & Jerry' })
    expect(message?.content).toBe('<i>Tom & Jerry</i> & more')
  })

  test('an avatar that renders to no URL fails the step: no message', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'Hi', avatar: '{{ payload.missing }}' }),
      step('sms', { body: 'still sent' }),
    ])
    const messages = await send(app, name)
    expect(messages.map((m) => m.channel)).toEqual(['sms'])
    expect(await detailsOf(app, 'tx')).toContainEqual([
      'Start sending message',
      'Bridge execution failed',
    ])
  })

  test('a step whose values fail its control schema sends nothing', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('in_app'), step('sms', { body: 'sent' })])
    const messages = await send(app, name)
    expect(messages.map((m) => m.channel)).toEqual(['sms'])
  })
})

describe('Liquid', () => {
  test("Novu's filters work: digest, toSentence, pluralize and json", async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: [
          "{{ payload.people | digest: 2, 'name' }}",
          "{{ payload.people | toSentence: 'name', 2 }}",
          "{{ payload.people | size | pluralize: 'person' }}",
          "{{ payload.count | pluralize: 'box' }}",
          '{{ payload.tag | json }}',
        ].join(' / '),
      }),
    ])
    const people = ['Ann', 'Bo', 'Cy', 'Di'].map((n) => ({ name: n }))
    const [message] = await send(app, name, { people, count: 2, tag: { a: 1 } })
    expect(message?.content).toBe(
      "Ann, Bo and 2 others / Ann, Bo, and 2 others / 4 people / 2 boxes / {'a':1}"
    )
  })

  test('objects print as JSON with single quotes; undefined variables print nothing', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: '{{ payload.items }}|{{ payload.nothing }}|{{ payload.flag }}' }),
    ])
    const [message] = await send(app, name, { items: [{ n: 'x', k: 1 }], flag: false })
    expect(message?.content).toBe("[{'n':'x','k':1}]||false")
  })

  test('loops, conditions and assignments run', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: '{% for item in payload.items %}{{ forloop.index }}:{{ item.sku }}{% unless forloop.last %}, {% endunless %}{% endfor %}{% if payload.vip %} (VIP){% endif %}{% assign n = payload.items | size %} n={{ n }}',
      }),
    ])
    const [message] = await send(app, name, { items: [{ sku: 'a' }, { sku: 'b' }], vip: true })
    expect(message?.content).toBe('1:a, 2:b (VIP) n=2')
  })

  test('the workflow, environment and earlier steps are variables too', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'first' }, 'Inbox'),
      step('sms', {
        body: '{{ workflow.name }} ({{ workflow.workflowId }}) in {{ env.name }}: seen={{ steps.inbox.seen }}',
      }),
    ])
    const messages = await send(app, name)
    expect(messages.find((m) => m.channel === 'sms')?.content).toBe(
      'Order Shipped (order-shipped) in Development: seen=false'
    )
  })

  test("`now` in the date filter is the environment's clock, in UTC", async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: "{{ 'now' | date: '%Y-%m-%d %H:%M' }}" }),
    ])
    const [message] = await send(app, name)
    expect(message?.content).toBe(FIXED_AT.slice(0, 16).replace('T', ' '))
  })

  test('a syntax error fails that step only: no message, the next steps still send', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'Hi {% if payload.x %}never closed' }),
      step('sms', { body: 'Hello {{ payload.x }}' }),
    ])
    const messages = await send(app, name, { x: 1 })
    expect(messages.map((m) => [m.channel, m.content])).toEqual([['sms', 'Hello 1']])
    expect(await detailsOf(app, 'tx')).toContainEqual([
      'Start sending message',
      'Bridge execution failed',
    ])
  })

  test('a double-quoted string inside a tag fails the step, as the JSON text upstream renders escapes it', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'Hi {{ payload.name | default: "there" }}' }),
    ])
    expect(await send(app, name)).toEqual([])
  })

  test('single-quoted strings inside tags work', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: "Hi {{ payload.name | default: 'there' }}" }),
    ])
    const [message] = await send(app, name)
    expect(message?.content).toBe('Hi there')
  })

  test('payload text with quotes, backslashes and newlines comes through intact', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('sms', { body: '<{{ payload.text }}>' })])
    const text = 'say "hi"\\n\nnext\ttab'
    const [message] = await send(app, name, { text })
    expect(message?.content).toBe(`<${text}>`)
  })

  test('include and render read no files: the step fails', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('in_app', { body: "{% include 'package.json' %}" })])
    expect(await send(app, name)).toEqual([])
  })
})

describe('email steps', () => {
  test('an HTML body and the subject render; the preheader is hidden at the top', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('email', {
        subject: 'Order {{ payload.id }} &amp; more',
        body: '<h1>Hi {{ subscriber.firstName }}</h1><p>  </p><p>Total: {{ payload.total }}</p>',
        editorType: 'html',
        preheader: 'Your order',
      }),
    ])
    const [message] = await send(app, name, { id: 5, total: '10 EUR' })
    expect(message).toMatchObject({
      channel: 'email',
      subject: 'Order 5 & more',
      email: 'ann@example.com',
      status: 'sent',
    })
    const content = message?.content as string
    expect(
      content.startsWith(
        '<div style="display: none; max-height: 0px; overflow: hidden;">Your order'
      )
    ).toBe(true)
    expect(content.endsWith('<h1>Hi Ann</h1><p></p><p>Total: 10 EUR</p>')).toBe(true)
  })

  test('an HTML body is rendered twice, as upstream renders it again after the framework', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('email', { subject: 'S', body: '<p>{{ payload.note }}</p>', editorType: 'html' }),
    ])
    const [message] = await send(app, name, { note: '{{ subscriber.lastName }}' })
    expect(message?.content).toBe('<p>Lee</p>')
  })

  test('a block-editor body renders its variables, conditions and loops to HTML', async () => {
    const { app } = triggerMock('2026-08')
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'heading',
          attrs: { level: 2 },
          content: [
            { type: 'text', text: 'Hello ' },
            { type: 'variable', attrs: { id: 'subscriber.firstName' } },
          ],
        },
        {
          type: 'repeat',
          attrs: { each: 'payload.items' },
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'variable', attrs: { id: 'payload.items.name' } },
                { type: 'text', text: ' x' },
                { type: 'variable', attrs: { id: 'payload.items.qty' } },
              ],
            },
          ],
        },
        {
          type: 'paragraph',
          attrs: { showIfKey: 'payload.vip' },
          content: [{ type: 'text', text: 'VIP only', marks: [{ type: 'bold' }] }],
        },
        {
          type: 'button',
          attrs: { text: 'Track', url: 'payload.link', isUrlVariable: true },
        },
        {
          type: 'paragraph',
          content: [{ type: 'variable', attrs: { id: 'payload.coupon', fallback: 'none' } }],
        },
      ],
    }
    const name = await createV2(app, [
      step('email', { subject: 'Items', body: JSON.stringify(doc), editorType: 'block' }),
    ])
    const [message] = await send(app, name, {
      items: [
        { name: 'Pen', qty: 2 },
        { name: 'Ink', qty: 1 },
      ],
      vip: false,
      link: 'https://shop.example/t/1',
    })
    expect(message?.content).toBe(
      '<html><head></head><body><h2>Hello Ann</h2><p>Pen x2</p><p>Ink x1</p>' +
        '<a href="https://shop.example/t/1" target="_blank">Track</a><p>none</p></body></html>'
    )
  })

  test('a block-editor loop over something that is not an array fails the step', async () => {
    const { app } = triggerMock('2026-08')
    const doc = {
      type: 'doc',
      content: [{ type: 'repeat', attrs: { each: 'payload.items' }, content: [] }],
    }
    const name = await createV2(app, [
      step('email', { subject: 'S', body: JSON.stringify(doc), editorType: 'block' }),
    ])
    expect(await send(app, name, { items: 'nope' })).toEqual([])
  })

  test('a body that is not Maily JSON under the block editor is emptied on create, then sent as an empty document', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('email', { subject: 'Hi', body: '<p>lost</p>', editorType: 'block' }),
    ])
    const [message] = await send(app, name)
    expect(message).toMatchObject({ subject: 'Hi' })
    expect(message?.content).toBe('<html><head></head><body><p></p></body></html>')
  })

  test('a body without an editor type that is not JSON is sent as HTML', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('email', { subject: 'Hi', body: '<p>kept</p>' })])
    const [message] = await send(app, name)
    expect(message?.content).toBe('<p>kept</p>')
  })

  test('a subscriber without an address gets a warning message, subject rendered', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('email', { subject: 'For {{ payload.who }}', body: '<p>x</p>', editorType: 'html' }),
    ])
    const res = await trigger(app, {
      name,
      to: { subscriberId: 'no-mail' },
      payload: { who: 'you' },
      transactionId: 'tx',
    })
    expect(res.status).toBe(201)
    const [message] = await messagesOf(app, 'tx')
    expect(message).toMatchObject({
      subject: 'For you',
      status: 'warning',
      errorText: 'Subscriber does not have an email address',
    })
  })
})

describe('SMS, chat and push steps', () => {
  test('an SMS body renders; an empty result still sends an empty message', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('sms', { body: 'Code {{ payload.code }}' }, 'Code'),
      step('sms', { body: '{{ payload.nothing }}' }, 'Empty'),
    ])
    const messages = await send(app, name, { code: 1234 })
    expect(messages.map((m) => m.content).sort()).toEqual(['', 'Code 1234'])
    expect(messages[0]).toMatchObject({ phone: '+15550100', status: 'sent' })
  })

  test('chat stores its rendered body; push stores an empty title and content, as upstream does', async () => {
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
    const name = await createV2(mock.app, [
      step('chat', { body: 'Chat {{ payload.x }}' }),
      step('push', { subject: 'T {{ payload.x }}', body: 'Push {{ payload.x }}' }),
    ])
    const res = await trigger(mock.app, {
      name,
      to: {
        subscriberId: 'u1',
        channels: [
          { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/1' } },
          { providerId: 'fcm', credentials: { deviceTokens: ['t1'] } },
        ],
      },
      payload: { x: 1 },
      transactionId: 'tx',
    })
    expect(res.status).toBe(201)
    const messages = await messagesOf(mock.app, 'tx')
    expect(messages.find((m) => m.channel === 'chat')).toMatchObject({ content: 'Chat 1' })
    expect(messages.find((m) => m.channel === 'push')).toMatchObject({
      title: '',
      content: '',
      deviceTokens: ['t1'],
    })
  })
})

describe('delay and digest steps', () => {
  test('a delay waits its amount on the environment clock before the next steps', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'now' }, 'Now'),
      step('delay', { type: 'regular', amount: 5, unit: 'minutes' }),
      step('in_app', { body: 'waited {{ steps.delay-step.duration }} ms' }, 'Later'),
    ])
    expect((await send(app, name)).map((m) => m.content)).toEqual(['now'])
    await advance(app, '4m')
    expect((await messagesOf(app, 'tx')).map((m) => m.content)).toEqual(['now'])
    await advance(app, '1m')
    const contents = (await messagesOf(app, 'tx')).map((m) => m.content)
    expect(contents.sort()).toEqual(['now', 'waited 300000 ms'])
  })

  test('a dynamic delay waits until the date the payload names', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('delay', { type: 'dynamic', dynamicKey: 'payload.sendAt' }),
      step('in_app', { body: 'due' }),
    ])
    const sendAt = new Date(Date.parse(FIXED_AT) + 3_600_000).toISOString()
    expect(await send(app, name, { sendAt })).toEqual([])
    await advance(app, '59m')
    expect(await messagesOf(app, 'tx')).toEqual([])
    await advance(app, '1m')
    expect((await messagesOf(app, 'tx')).map((m) => m.content)).toEqual(['due'])
  })

  test('a dynamic delay whose date has passed fails: the later steps never run', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('delay', { type: 'dynamic', dynamicKey: 'payload.sendAt' }),
      step('in_app', { body: 'due' }),
    ])
    expect(await send(app, name, { sendAt: '2020-01-01T00:00:00.000Z' })).toEqual([])
    await advance(app, '1d')
    expect(await messagesOf(app, 'tx')).toEqual([])
  })

  test('a digest gathers the triggers of its window into one message on the first transaction', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('digest', { amount: 10, unit: 'minutes' }, 'Gather'),
      step('in_app', {
        body: "{{ steps.gather.eventCount }} orders: {{ steps.gather.events | map: 'payload' | map: 'id' | join: ', ' }}",
      }),
    ])
    await send(app, name, { id: 'A' }, 'tx-1')
    await advance(app, '1m')
    await send(app, name, { id: 'B' }, 'tx-2')
    await advance(app, '10m')
    const first = await messagesOf(app, 'tx-1')
    expect(first.map((m) => m.content)).toEqual(['2 orders: A, B'])
    expect(await messagesOf(app, 'tx-2')).toEqual([])
  })

  test('a digest key groups the triggers by its rendered value', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('digest', { amount: 10, unit: 'minutes', digestKey: '{{ payload.shop }}' }, 'Gather'),
      step('in_app', { body: '{{ payload.shop }}: {{ steps.gather.eventCount }}' }),
    ])
    await send(app, name, { shop: 'north' }, 'tx-1')
    await send(app, name, { shop: 'south' }, 'tx-2')
    await send(app, name, { shop: 'north' }, 'tx-3')
    await advance(app, '10m')
    expect((await messagesOf(app, 'tx-1')).map((m) => m.content)).toEqual(['north: 2'])
    expect((await messagesOf(app, 'tx-2')).map((m) => m.content)).toEqual(['south: 1'])
    expect(await messagesOf(app, 'tx-3')).toEqual([])
  })

  test('a delay or digest too long for any date fails its job; the trigger still answers 201', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: 'first' }),
      step('digest', { amount: 1e20, unit: 'months' }),
      step('sms', { body: 'never' }),
    ])
    expect((await send(app, name)).map((m) => m.channel)).toEqual(['in_app'])
    expect(await detailsOf(app, 'tx')).toContainEqual(['Defer duration limit exceeded'])
  })

  test('a waiting v2 digest can be canceled like a v1 one', async () => {
    const { app } = await fixedClockMock('2026-08')
    const name = await createV2(app, [
      step('digest', { amount: 10, unit: 'minutes' }),
      step('in_app', { body: 'digested' }),
    ])
    await send(app, name)
    const res = await request(app, 'DELETE', '/v1/events/trigger/tx')
    expect(res.body).toEqual({ data: true })
    await advance(app, '10m')
    expect(await messagesOf(app, 'tx')).toEqual([])
  })
})

// Each limit shows in the outcome (the step fails, the steps after it run), and where the work is
// loops, in the Liquid blocks rendered: a render that stopped late would show in the count, where
// a clock would flake on a loaded machine.
describe('bounds', () => {
  const blocksOf = <T>(work: () => Promise<T>) => counted(liquidBlocksRendered, work)
  /** Each text rendered counts its root as a block: the steps after a refused one render theirs. */
  const ROOT = 1
  test('nested loops over a huge payload array stop at the iteration limit: no message', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: '{% for a in payload.items %}{% for b in payload.items %}.{% endfor %}{% endfor %}',
      }),
      step('sms', { body: 'after' }),
    ])
    const items = Array.from({ length: 50_000 }, (_, i) => i)
    const { result: messages, work: blocks } = await blocksOf(() => send(app, name, { items }))
    expect(messages.map((m) => m.channel)).toEqual(['sms'])
    expect(blocks).toBeLessThanOrEqual(LIQUID_LIMITS.blocks + 1 + ROOT)
  })

  test('a range too large for the allocation limit fails the step', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', { body: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' }),
    ])
    const { result: messages, work: blocks } = await blocksOf(() => send(app, name))
    expect(messages).toEqual([])
    expect(blocks).toBeLessThanOrEqual(ROOT)
  })

  test('output growing past 1 MB fails the step', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [
      step('in_app', {
        body: "{% assign s = 'xxxxxxxxxxxxxxxx' %}{% for i in (1..20) %}{% assign s = s | append: s %}{% endfor %}{{ s }}",
      }),
    ])
    expect(await send(app, name)).toEqual([])
  })

  test('tags nested 5,000 deep fail the step without overflowing the stack', async () => {
    const { app } = triggerMock('2026-08')
    const body = '{% if true %}'.repeat(5000) + 'x' + '{% endif %}'.repeat(5000)
    const name = await createV2(app, [step('in_app', { body }), step('sms', { body: 'after' })])
    const { result: messages, work: blocks } = await blocksOf(() => send(app, name))
    expect(messages.map((m) => m.channel)).toEqual(['sms'])
    expect(blocks).toBeLessThanOrEqual(ROOT)
  })

  test('a deeply nested payload printed whole fails the step, the trigger still answers', async () => {
    const { app } = triggerMock('2026-08')
    const name = await createV2(app, [step('in_app', { body: '{{ payload.deep }}' })])
    let deep: Obj = { leaf: 'x' }
    for (let i = 0; i < 3000; i++) deep = { deep }
    expect(await send(app, name, { deep })).toEqual([])
  })

  test('a block-editor loop over a huge array stops at the node limit: no email', async () => {
    const { app } = triggerMock('2026-08')
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'repeat',
          attrs: { each: 'payload.items' },
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }],
        },
      ],
    }
    const name = await createV2(app, [
      step('email', { subject: 'S', body: JSON.stringify(doc), editorType: 'block' }),
    ])
    const items = Array.from({ length: 200_000 }, () => 1)
    const { result: messages, work: blocks } = await blocksOf(() => send(app, name, { items }))
    expect(messages).toEqual([])
    expect(blocks).toBeLessThanOrEqual(ROOT)
  })
})

describe('@novu/api 3.19.1', () => {
  test('a workflow created with workflows.create triggers, and its messages parse', async () => {
    const mock = await startMock({ port: 0, logLevel: 'silent' })
    try {
      const novu = new Novu({
        secretKey: 'sdk-v2-trigger',
        serverURL: mock.url,
        retryConfig: { strategy: 'none' },
      })
      await novu.workflows.create({
        name: 'Welcome',
        workflowId: 'welcome',
        active: true,
        steps: [
          {
            name: 'Inbox',
            type: 'in_app',
            controlValues: {
              subject: 'Welcome {{ subscriber.firstName }}',
              body: 'Your code is {{ payload.code }}',
              avatar: 'https://cdn.example/a.png',
              primaryAction: { label: 'Start', redirect: { url: '/start' } },
              data: { code: '{{ payload.code }}' },
            },
          },
        ],
      })
      const sent = await novu.trigger({
        workflowId: 'welcome',
        to: { subscriberId: 'sdk-user', firstName: 'Sam' },
        payload: { code: 'XY' },
      })
      const transactionId = sent.result.transactionId as string
      const res = await novu.messages.retrieve({ transactionId: [transactionId] })
      expect(res.result.data).toHaveLength(1)
      expect(res.result.data[0]).toMatchObject({
        subject: 'Welcome Sam',
        content: 'Your code is XY',
        cta: {
          type: 'redirect',
          action: { buttons: [{ type: 'primary', content: 'Start' }] },
        },
      })
    } finally {
      await mock.close()
    }
  })
})
