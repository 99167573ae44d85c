import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'
import type { Obj } from '../../objects.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'

type Variable = { name: string; type: string; _id?: string }

/** Creates a workflow from the given steps and answers its trigger, variable ids removed. */
async function triggerOf(steps: Obj[]) {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'POST', '/v1/workflows', {
    body: { name: 'Variables', notificationGroupId: GENERAL, steps },
  })
  expect(res.status).toBe(201)
  const trigger = res.body.data.triggers[0]
  return {
    variables: trigger.variables.map(({ name, type }: Variable) => ({ name, type })),
    reservedVariables: trigger.reservedVariables,
    subscriberVariables: trigger.subscriberVariables.map(({ name }: Variable) => name),
    raw: trigger,
  }
}

const step = (template: Obj, extra: Obj = {}) => ({ name: 'Step', template, ...extra })
const inApp = (content: string) => step({ type: 'in_app', content })
const S = (name: string) => ({ name, type: 'String' })
const A = (name: string) => ({ name, type: 'Array' })
const B = (name: string) => ({ name, type: 'Boolean' })

test('stores each variable as name, type and its own _id', async () => {
  const { raw } = await triggerOf([inApp('Hi {{firstName}}')])
  expect(raw.variables).toEqual([
    { name: 'firstName', type: 'String', _id: expect.stringMatching(/^[0-9a-f]{24}$/) },
  ])
})

test('extracts the variables of the upstream event-trigger example', async () => {
  const { variables } = await triggerOf([inApp('Test Template {{name}} {{lastName}}')])
  expect(variables).toEqual([S('name'), S('lastName')])
})

test.each([
  { content: '{{#each items}}{{name}}{{/each}}', variables: [A('items'), S('items.name')] },
  { content: '{{#each items}}{{this}}{{/each}}', variables: [A('items'), S('items.this')] },
  { content: '{{#with order}}{{id}}{{/with}}', variables: [S('order.id')] },
  { content: '{{#if flag}}yes{{/if}}', variables: [B('flag')] },
  { content: '{{#unless hidden}}shown{{/unless}}', variables: [B('hidden')] },
  { content: '{{#if flag}}{{inner}}{{/if}}', variables: [B('flag'), S('inner')] },
  {
    content: '{{#if flag}}x{{/if}} {{#each items}}y{{/each}} {{plain}}',
    variables: [S('plain'), A('items'), B('flag')],
  },
  { content: '{{titlecase word}}', variables: [S('word')] },
  { content: '{{customHelper word}}', variables: [] },
  { content: '{{#equals a b}}{{inside}}{{/equals}}', variables: [] },
  { content: '{{a}} {{b}} {{a}}', variables: [S('a'), S('b')] },
  { content: 'no variables here', variables: [] },
])('extracts $variables from $content', async ({ content, variables }) => {
  const trigger = await triggerOf([inApp(content)])
  expect(trigger.variables).toEqual(variables)
})

test.each([
  'subscriber.firstName',
  'step.digest',
  'branding.logo',
  'preheader',
  'actor.firstName',
  'tenant.name',
])('drops the system variable {{%s}}', async (name) => {
  const { variables } = await triggerOf([inApp(`Hi {{${name}}} and {{kept}}`)])
  expect(variables).toEqual([S('kept')])
})

test('adds the tenant reserved variable for {{tenant.name}}', async () => {
  const { variables, reservedVariables } = await triggerOf([inApp('Team {{tenant.name}}')])
  expect(variables).toEqual([])
  // Each reserved entry and its variables are Mongoose subdocuments with their own _id.
  expect(reservedVariables).toMatchObject([
    {
      type: 'tenant',
      variables: [{ name: 'identifier', type: 'String', _id: expect.any(String) }],
      _id: expect.any(String),
    },
  ])
})

test('adds the actor reserved variable for {{actor.*}}, once per type', async () => {
  const { reservedVariables } = await triggerOf([
    inApp('{{tenant.name}} {{actor.firstName}} {{actor.lastName}}'),
  ])
  expect(reservedVariables).toMatchObject([
    { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] },
    { type: 'actor', variables: [{ name: 'subscriberId', type: 'String' }] },
  ])
  expect(reservedVariables).toHaveLength(2)
})

test('has no reserved variables by default', async () => {
  const { reservedVariables } = await triggerOf([inApp('{{subscriber.firstName}}')])
  expect(reservedVariables).toEqual([])
})

test('reads the in-app content and CTA url', async () => {
  const template = {
    type: 'in_app',
    content: '{{a}}',
    cta: { type: 'redirect', data: { url: '/x/{{b}}' } },
  }
  expect((await triggerOf([step(template)])).variables).toEqual([S('a'), S('b')])
})

test('reads the push content and title', async () => {
  const template = { type: 'push', content: '{{body}}', title: '{{heading}}' }
  expect((await triggerOf([step(template)])).variables).toEqual([S('body'), S('heading')])
})

test('reads the subject and each block url and content of an email with blocks', async () => {
  const template = {
    type: 'email',
    subject: '{{subject}}',
    preheader: '{{pre}}',
    senderName: '{{sender}}',
    content: [
      { type: 'text', content: '{{first}}' },
      { type: 'button', url: '{{link}}', content: '{{label}}' },
    ],
  }
  expect((await triggerOf([step(template)])).variables).toEqual([
    S('subject'),
    S('first'),
    S('link'),
    S('label'),
  ])
})

test('reads only the content of an email whose content is a string', async () => {
  const template = {
    type: 'email',
    subject: '{{subject}}',
    content: '<p>{{body}}</p>',
    contentType: 'customHtml',
  }
  expect((await triggerOf([step(template)])).variables).toEqual([S('body')])
})

test('reads the content of a chat step', async () => {
  expect((await triggerOf([step({ type: 'chat', content: '{{msg}}' })])).variables).toEqual([
    S('msg'),
  ])
})

test('adds the field of each payload filter child, not the others', async () => {
  const filters = [
    {
      type: 'GROUP',
      value: 'AND',
      children: [
        { on: 'payload', field: 'plan', value: 'pro', operator: 'EQUAL' },
        { on: 'subscriber', field: 'firstName', value: 'Ada', operator: 'EQUAL' },
      ],
    },
  ]
  const { variables } = await triggerOf([step({ type: 'in_app', content: '{{a}}' }, { filters })])
  expect(variables).toEqual([S('a'), S('plan')])
})

test('adds the digest key of a digest step and the delay path of a scheduled delay', async () => {
  const { variables } = await triggerOf([
    step(
      { type: 'digest' },
      { metadata: { type: 'regular', digestKey: 'postId', amount: 5, unit: 'minutes' } }
    ),
    step({ type: 'delay' }, { metadata: { type: 'scheduled', delayPath: 'sendAt' } }),
  ])
  expect(variables).toEqual([S('postId'), S('sendAt')])
})

test('merges the variables of every step in order of first use', async () => {
  const { variables } = await triggerOf([
    inApp('{{b}} {{a}}'),
    step({ type: 'sms', content: '{{a}} {{c}}' }),
  ])
  expect(variables).toEqual([S('b'), S('a'), S('c')])
})

test('keeps the first position and the last type of a variable used twice', async () => {
  const { variables } = await triggerOf([inApp('{{items}} {{#each items}}x{{/each}}')])
  expect(variables).toEqual([A('items')])
})

test.each([
  { types: ['in_app'], subscriberVariables: [] },
  { types: ['sms'], subscriberVariables: ['phone'] },
  { types: ['email'], subscriberVariables: ['email'] },
  { types: ['email', 'sms'], subscriberVariables: ['phone', 'email'] },
  { types: ['push', 'chat'], subscriberVariables: [] },
])(
  'gives steps $types the subscriber variables $subscriberVariables',
  async ({ types, subscriberVariables }) => {
    const steps = types.map((type) => step({ type, content: 'x' }))
    const trigger = await triggerOf(steps)
    expect(trigger.subscriberVariables).toEqual(subscriberVariables)
    for (const variable of trigger.raw.subscriberVariables)
      expect(Object.keys(variable).sort()).toEqual(['_id', 'name'])
  }
)

test.each(['Hello {{name', '{{#if flag}}never closed', '{{/if}}', '{{null}}'])(
  'answers 400 "Failed to extract variables" to the template %j',
  async (content) => {
    const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
    const res = await request(app, 'POST', '/v1/workflows', {
      body: { name: 'Broken', notificationGroupId: GENERAL, steps: [inApp(content)] },
    })
    expect(res.status).toBe(400)
    expect(res.body.statusCode).toBe(400)
    expect(res.body.message).toBe('Failed to extract variables')
  }
)

// Behaviours read from the upstream source at the facts' @HEAD commit (74a2e9a), beyond the facts file.

test('gives each reserved variable and its variables a subdocument _id', async () => {
  const { raw } = await triggerOf([inApp('{{tenant.name}}')])
  const id = expect.stringMatching(/^[0-9a-f]{24}$/)
  expect(raw.reservedVariables).toEqual([
    { type: 'tenant', variables: [{ name: 'identifier', type: 'String', _id: id }], _id: id },
  ])
})

test('finds reserved variables in the step texts only, not in filters or digest keys', async () => {
  const filters = [
    {
      type: 'GROUP',
      value: 'AND',
      children: [{ on: 'payload', field: 'actor.id', value: 'x', operator: 'EQUAL' }],
    },
  ]
  const { variables, reservedVariables } = await triggerOf([
    step({ type: 'in_app', content: 'Hi' }, { filters }),
    step({ type: 'digest' }, { metadata: { type: 'regular', digestKey: 'tenant.id' } }),
  ])
  expect(variables).toEqual([])
  expect(reservedVariables).toEqual([])
})

test.each([
  { content: '{{#each}}x{{/each}}', variables: [A('each')] },
  { content: '{{#if}}x{{/if}}', variables: [B('if')] },
])(
  'names a block helper without a parameter after the helper in $content',
  async ({ content, variables }) => {
    expect((await triggerOf([inApp(content)])).variables).toEqual(variables)
  }
)

test.each([
  { label: 'an {{undefined}} literal', template: { type: 'in_app', content: '{{undefined}}' } },
  { label: 'a helper given a number', template: { type: 'in_app', content: '{{titlecase 5}}' } },
  { label: 'a numeric in-app content', template: { type: 'in_app', content: 123 } },
  { label: 'an array sms content', template: { type: 'sms', content: ['not', 'text'] } },
  { label: 'a numeric push title', template: { type: 'push', content: 'x', title: 7 } },
  {
    label: 'a numeric email subject',
    template: { type: 'email', subject: 7, content: [{ type: 'text', content: 'x' }] },
  },
])('answers 400 "Failed to extract variables" to $label', async ({ template }) => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'POST', '/v1/workflows', {
    body: { name: 'Broken', notificationGroupId: GENERAL, steps: [step(template)] },
  })
  expect(res.status).toBe(400)
  expect(res.body.message).toBe('Failed to extract variables')
})
