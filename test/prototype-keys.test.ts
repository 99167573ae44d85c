// Issue #18, finding 1: no name a request, a state import or a scenario gives (variable names,
// payload paths, keys of `data`, payloads, overrides, control values, template contexts) ever
// reaches Object.prototype. Every body-accepting route is sent `__proto__`, `constructor` and
// `prototype` names in both generations; then the rest of the process must be untouched.
import { afterEach, describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import type { GenerationName } from '../src/generations/generation.js'
import { request, type Requestable } from './helpers.js'
import { GENERAL_GROUP_ID, GENERATIONS, messagesOf, trigger } from './trigger-helpers.js'

const MARK = 'polluted'

/** JSON text, so that `__proto__` is an own key of the parsed body, as a client sends it. */
const POISON_TEXT = JSON.stringify({
  body: 'own',
  // Members every object inherits: a record whose prototype became this one would break.
  proto: { body: MARK, tenant: MARK, toString: MARK, valueOf: MARK, hasOwnProperty: MARK },
  constructor: { prototype: { body: MARK, tenant: MARK } },
  prototype: { body: MARK, tenant: MARK },
}).replace('"proto"', '"__proto__"')

/** An object with own `__proto__`, `constructor` and `prototype` keys. */
const poison = (): Record<string, unknown> => JSON.parse(POISON_TEXT)

/** A payload schema whose properties, with defaults, are those names. */
const schemaPoison = (): Record<string, unknown> => {
  const inner = { type: 'object', properties: { body: { type: 'string', default: MARK } } }
  const text = JSON.stringify({ proto: inner, constructor: inner, prototype: inner })
  return { type: 'object', properties: JSON.parse(text.replace('"proto"', '"__proto__"')) }
}

const PATHS = [
  '__proto__.body',
  '__proto__.tenant',
  'constructor.prototype.body',
  'constructor.prototype.tenant',
  'prototype.body',
  '__proto__',
  'constructor',
]

const variables = () =>
  PATHS.map((name) => ({ name, type: 'String', required: false, defaultValue: MARK }))

/** `{{…}}` placeholders over every path, as Handlebars and Liquid read them. */
const placeholders = (prefix: string) => PATHS.map((p) => `{{${prefix}${p}}}`).join(' ')

/** A v1 workflow whose every step names the paths: variables, digest key, delay path, content. */
const v1Workflow = (name: string) => ({
  name,
  notificationGroupId: GENERAL_GROUP_ID,
  active: true,
  data: poison(),
  steps: [
    {
      template: { type: 'digest' },
      metadata: { amount: 5, unit: 'minutes', digestKey: '__proto__.body', type: 'regular' },
    },
    {
      template: { type: 'delay' },
      metadata: { amount: 1, unit: 'minutes', type: 'regular' },
    },
    {
      template: {
        type: 'in_app',
        content: `${placeholders('')} ${placeholders('payload.')}`,
        variables: variables(),
        ...poison(),
      },
      ...poison(),
    },
  ],
})

const scheduledWorkflow = (name: string) => ({
  name,
  notificationGroupId: GENERAL_GROUP_ID,
  active: true,
  steps: [
    {
      template: { type: 'delay' },
      metadata: { type: 'scheduled', delayPath: '__proto__.body', amount: 1, unit: 'minutes' },
    },
    { template: { type: 'in_app', content: 'later', variables: variables() } },
  ],
})

const v2Workflow = (workflowId: string) => ({
  name: workflowId,
  workflowId,
  payloadSchema: schemaPoison(),
  steps: [
    {
      name: 'Digest',
      type: 'digest',
      controlValues: { amount: 5, unit: 'minutes', digestKey: 'payload.__proto__.body' },
    },
    {
      name: 'Inbox',
      type: 'in_app',
      controlValues: {
        ...poison(),
        body: `${placeholders('payload.')} {% assign __proto__ = 'x' %}{{ payload | json }}`,
      },
    },
  ],
})

/** A trigger body with the names in every part the trigger reads. */
const triggerBody = (name: string) => ({
  name,
  payload: poison(),
  overrides: { ...poison(), in_app: poison(), delay: poison() },
  to: [
    { subscriberId: '__proto__', data: poison(), ...poison() },
    { subscriberId: 'constructor', data: poison() },
    { type: 'Topic', topicKey: 'prototype' },
  ],
  actor: { subscriberId: 'prototype', data: poison() },
})

/** A trigger for a tenant: answered `no_tenant_found`, its tenant read all the same. */
const tenantTrigger = (name: string) => ({
  ...triggerBody(name),
  tenant: { identifier: '__proto__', data: poison(), ...poison() },
})

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort()

/** Every status the hostile requests got, to prove none crashed. */
type Sent = { label: string; status: number }

async function send(
  app: Requestable,
  sent: Sent[],
  method: string,
  path: string,
  body: unknown,
  key: string
) {
  const res = await request(app, method, path, { body, key })
  sent.push({ label: `${method} ${path}`, status: res.status })
  return res
}

/** Sends the names through every body-accepting route of one key. */
async function attack(app: Requestable, key: string, sent: Sent[]) {
  const go = (method: string, path: string, body: unknown) =>
    send(app, sent, method, path, body, key)
  const v1 = await go('POST', '/v1/workflows', v1Workflow('Proto v1'))
  const identifier = v1.body?.data?.triggers?.[0]?.identifier ?? 'proto-v1'
  const scheduled = await go('POST', '/v1/notification-templates', scheduledWorkflow('Proto at'))
  await go('PUT', `/v1/workflows/${v1.body?.data?._id}/status`, { active: true, ...poison() })
  await go('POST', '/v1/notification-groups', { name: 'Proto', ...poison() })
  for (const id of ['__proto__', 'constructor', 'prototype']) {
    await go('POST', '/v1/subscribers', { subscriberId: id, data: poison(), ...poison() })
    await go('PUT', `/v1/subscribers/${id}`, { data: poison(), firstName: 'P', ...poison() })
    await go('POST', '/v2/subscribers', { subscriberId: `${id}2`, data: poison(), ...poison() })
    await go('PATCH', `/v2/subscribers/${id}`, { data: poison(), ...poison() })
    await go('POST', '/v1/topics', { key: id, name: id, ...poison() })
    await go('PATCH', `/v1/topics/${id}`, { name: 'renamed', ...poison() })
    await go('POST', `/v1/topics/${id}/subscribers`, { subscribers: ['__proto__', 'constructor'] })
    await go('POST', '/v2/topics', { key: `${id}2`, name: id, ...poison() })
    await go('PATCH', `/v2/topics/${id}2`, { name: 'renamed', ...poison() })
    await go('POST', `/v2/topics/${id}2/subscriptions`, {
      subscriptions: [{ subscriberId: id, ...poison() }],
    })
    await go('POST', `/v1/topics/${id}/subscribers/removal`, { subscribers: ['prototype'] })
  }
  await go('POST', '/v2/workflows', v2Workflow('__proto__'))
  await go('POST', '/v2/workflows', v2Workflow('constructor'))
  await go('PUT', '/v2/workflows/constructor', v2Workflow('constructor'))
  await go('PATCH', '/v2/workflows/constructor', { active: true, ...poison() })
  await go('POST', '/v2/workflows', v2Workflow('prototype'))
  for (const name of [
    identifier,
    scheduled.body?.data?.triggers?.[0]?.identifier,
    'constructor',
    'prototype',
  ]) {
    await go('POST', '/v1/events/trigger', triggerBody(name))
    await go('POST', '/v1/events/trigger', tenantTrigger(name))
  }
  await go('POST', '/v1/events/trigger/bulk', { events: [triggerBody(identifier)] })
  await go('POST', '/v1/events/trigger/broadcast', { ...triggerBody(identifier), to: undefined })
  sent.push({ label: 'clock', status: (await clock(app, key)).status })
  for (const path of READS) await go('GET', path, undefined)
  const feed = await request(app, 'GET', '/v1/notifications?limit=50', { key })
  // A job that threw would fail quietly (the trigger answered 201 before): none may have.
  expect(feed.status).toBe(200)
  expect(feed.text).not.toContain('Job failed')
  const exported = await request(app, 'GET', `/__admin/state?apiKey=${key}`, { key: null })
  sent.push({ label: 'GET /__admin/state', status: exported.status })
}

/** What the attacker's key reads back afterwards. */
const READS = [
  '/v1/subscribers',
  '/v1/subscribers/__proto__',
  '/v1/topics',
  '/v1/topics/__proto__',
  '/v1/workflows',
  '/v1/messages',
  '/v1/notifications',
  '/v2/workflows',
  '/v2/workflows/constructor',
  '/v2/subscribers',
  '/v2/subscribers/constructor',
  '/v2/topics',
  '/v2/topics/__proto__2/subscriptions',
]

const clock = (app: Requestable, key: string) =>
  request(app, 'POST', `/__admin/clock?apiKey=${key}`, { body: { advance: '2h' }, key: null })

/** The same names through the control plane: a state import and a scenario's data. */
async function attackControlPlane(app: Requestable, sent: Sent[]) {
  const data = {
    subscribers: [{ subscriberId: '__proto__', data: poison(), ...poison() }],
    topics: [{ key: '__proto__', subscribers: ['__proto__', 'constructor'], ...poison() }],
    workflows: [{ ...v1Workflow('Imported'), ...poison() }],
  }
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await request(app, method, path, { body, key: null })
    sent.push({ label: `${method} ${path}`, status: res.status })
    return res.status
  }
  // Names the record format does not know are refused at the top; inside records, kept.
  const refused = await admin('PUT', '/__admin/state?apiKey=imported', { ...data, ...poison() })
  expect([400, 422]).toContain(refused)
  expect(await admin('PUT', '/__admin/state?apiKey=imported', data)).toBe(200)
  await send(app, sent, 'POST', '/v1/events/trigger', triggerBody('imported'), 'imported')
  await admin('POST', '/__admin/scenario', { scenario: { name: 'proto', data, ...poison() } })
  expect(await admin('POST', '/__admin/scenario', { scenario: { name: 'proto', data } })).toBe(200)
  await send(app, sent, 'POST', '/v1/events/trigger', triggerBody('imported'), 'scenario-key')
  sent.push({ label: 'clock', status: (await clock(app, 'scenario-key')).status })
}

/** What a healthy key does: creates a workflow, triggers it, and reads its message. */
async function healthyKeyWorks(app: Requestable, key: string) {
  const created = await request(app, 'POST', '/v1/workflows', {
    key,
    body: {
      name: 'Plain',
      notificationGroupId: GENERAL_GROUP_ID,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Hi {{body}}' } }],
    },
  })
  expect(created.status).toBe(201)
  const res = await trigger(
    app,
    { name: created.body.data.triggers[0].identifier, to: 'ada', transactionId: `tx-${key}` },
    key
  )
  expect(res.status).toBe(201)
  expect(res.body.data.status).toBe('processed')
  const messages = await messagesOf(app, `tx-${key}`, key)
  expect(messages.map((m) => m.content)).toEqual(['Hi '])
}

afterEach(() => {
  // A failure here must not take the rest of the test run down with it.
  for (const name of Object.getOwnPropertyNames(Object.prototype))
    if (!PROTOTYPE_NAMES.includes(name)) delete (Object.prototype as Record<string, unknown>)[name]
})

describe.each(GENERATIONS)('in %s', (apiGeneration: GenerationName) => {
  test('prototype names through every body-accepting route leave every other key and the control plane unaffected', async () => {
    const { app } = createMock({ apiGeneration, seed: 'proto', logLevel: 'silent' })
    const sent: Sent[] = []
    await attack(app, 'attacker', sent)
    await attackControlPlane(app, sent)

    expect(sent.filter((s) => s.status >= 500)).toEqual([])
    const triggers = sent.filter((s) => s.label === 'POST /v1/events/trigger')
    // The v1 workflow's, and the imported and the scenario's workflows': their defaults ran.
    expect([triggers[0], ...triggers.slice(-2)].map((s) => s?.status)).toEqual([201, 201, 201])
    expect(({} as Record<string, unknown>).body).toBeUndefined()
    expect(({} as Record<string, unknown>).tenant).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES)
    expect((await request(app, 'GET', '/__admin/health', { key: null })).status).toBe(200)
    await healthyKeyWorks(app, 'bystander')
    expect((await request(app, 'POST', '/__admin/reset', { key: null })).status).toBe(200)
    await healthyKeyWorks(app, 'after-reset')
    await healthyKeyWorks(app, 'attacker')
  })
})
