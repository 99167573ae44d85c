import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, type Requestable } from './helpers.js'

const admin = { key: null }
const options = { apiGeneration: '2024-10', logLevel: 'silent' } as const

/** The `_id` of every document and subdocument in a value (steps, templates, variables). */
function idsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsIn(item, into)
  else if (value && typeof value === 'object') {
    const { _id } = value as { _id?: unknown }
    if (typeof _id === 'string') into.add(_id)
    for (const item of Object.values(value)) idsIn(item, into)
  }
  return into
}

const workflowBody = (name: string, notificationGroupId: string) => ({
  name,
  notificationGroupId,
  steps: [
    { template: { type: 'email', subject: 'Hi', content: [{ type: 'text', content: 'x' }] } },
  ],
})

async function createWorkflow(app: Requestable, key: string, name: string) {
  const groups = await request(app, 'GET', '/v1/notification-groups', { key })
  const res = await request(app, 'POST', '/v1/workflows', {
    key,
    body: workflowBody(name, groups.body.data[0]._id),
  })
  expect(res.status).toBe(201)
  return res.body.data
}

test('a workflow created after PUT /__admin/state gets an id no stored record has, and no stored workflow changes', async () => {
  const { app } = createMock(options)
  await createWorkflow(app, 'ids', 'Before export')
  const exported = (await request(app, 'GET', '/__admin/state?apiKey=ids', admin)).body
  const put = await request(app, 'PUT', '/__admin/state?apiKey=ids', { ...admin, body: exported })
  expect(put.status).toBe(200)

  const created = await createWorkflow(app, 'ids', 'After import')
  expect(idsIn(created).size).toBeGreaterThan(1)
  for (const id of idsIn(created)) expect(idsIn(exported).has(id)).toBe(false)
  const after = (await request(app, 'GET', '/__admin/state?apiKey=ids', admin)).body
  expect(after.workflows).toHaveLength(exported.workflows.length + 1)
  expect(after.workflows.slice(0, exported.workflows.length)).toEqual(exported.workflows)
})

test('an environment seeded with records from an export never hands their ids out again', async () => {
  const { app } = createMock(options)
  for (let i = 0; i < 3; i++) await createWorkflow(app, 'seeded', `Made ${i}`)
  const exported = (await request(app, 'GET', '/__admin/state?apiKey=seeded', admin)).body
  const scenario = { name: 'from-export', data: exported }
  const loaded = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { scenario } })
  expect(loaded.status).toBe(200)

  // Same seed, same key: the generator would make the exported ids again without skipping them.
  const created = await createWorkflow(app, 'seeded', 'Made again')
  for (const id of idsIn(created)) expect(idsIn(exported).has(id)).toBe(false)
  const list = await request(app, 'GET', '/v1/workflows?limit=100', { key: 'seeded' })
  expect(list.body.totalCount).toBe(exported.workflows.length + 1)
})

test('an import that repeats an _id is refused, naming both records, and changes nothing', async () => {
  const { app } = createMock(options)
  const before = (await request(app, 'GET', '/__admin/state?apiKey=dup', admin)).body
  const [first] = before.workflows
  const res = await request(app, 'PUT', '/__admin/state?apiKey=dup', {
    ...admin,
    body: { ...before, workflows: [first, { ...first, name: 'Impostor' }] },
  })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(JSON.stringify(res.body)).toContain('data.workflows.1._id')
  expect(JSON.stringify(res.body)).toContain('data.workflows.0')
  expect((await request(app, 'GET', '/__admin/state?apiKey=dup', admin)).body).toEqual(before)
})

test('a scenario whose records repeat an _id is refused when it loads', async () => {
  const { app } = createMock(options)
  const group = { _id: '66fbb0a0c1f2e3d4a5b6aaaa', name: 'One' }
  const scenario = {
    name: 'twice',
    data: { notificationGroups: [group, { ...group, name: 'Two' }] },
  }
  const res = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { scenario } })
  expect(res.status).toBe(400)
  expect(JSON.stringify(res.body)).toContain('data.notificationGroups.1._id')
})
