import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import {
  INTERNAL_ERROR_MESSAGE,
  ISO_DATE,
  OBJECT_ID,
  request,
  withoutErrorId,
  withoutTimestamp,
} from '../../../test/helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'
const BILLING = '66fbb0a0c1f2e3d4a5b60002'
const WELCOME_EMAIL = '66fbb0a0c1f2e3d4a5b61001'
const ORDER_SHIPPED = '66fbb0a0c1f2e3d4a5b61002'
const UNKNOWN = '6718a0aae1a2b3c4d5e6f0aa'

const mock = () => createMock({ apiGeneration: '2024-10', seed: 'test' }).app

test('lists every group wrapped in data, in creation order, without the id virtual', async () => {
  const res = await request(mock(), 'GET', '/v1/notification-groups')
  expect(res.status).toBe(200)
  expect(Object.keys(res.body)).toEqual(['data'])
  expect(res.body.data).toHaveLength(4)
  expect(
    res.body.data.slice(0, 2).map((g: { _id: string; name: string }) => [g._id, g.name])
  ).toEqual([
    [GENERAL, 'General'],
    [BILLING, 'Billing'],
  ])
  const allowed = [
    '_id',
    'name',
    '_environmentId',
    '_organizationId',
    '_parentId',
    'createdAt',
    'updatedAt',
    '__v',
  ]
  for (const group of res.body.data) {
    expect(group).not.toHaveProperty('id')
    expect(allowed).toEqual(expect.arrayContaining(Object.keys(group)))
    expect(group).toMatchObject({
      _environmentId: expect.stringMatching(OBJECT_ID),
      _organizationId: expect.stringMatching(OBJECT_ID),
      createdAt: expect.stringMatching(ISO_DATE),
      updatedAt: expect.stringMatching(ISO_DATE),
      __v: 0,
    })
  }
})

test('gets one group wrapped in data, with the id virtual', async () => {
  const res = await request(mock(), 'GET', `/v1/notification-groups/${GENERAL}`)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({
    data: {
      _id: GENERAL,
      name: 'General',
      _environmentId: expect.stringMatching(OBJECT_ID),
      _organizationId: expect.stringMatching(OBJECT_ID),
      createdAt: expect.stringMatching(ISO_DATE),
      updatedAt: expect.stringMatching(ISO_DATE),
      __v: 0,
      id: GENERAL,
    },
  })
})

test('answers 404 "Not Found" without an error key for an unknown group', async () => {
  const res = await request(mock(), 'GET', `/v1/notification-groups/${UNKNOWN}`)
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: `/v1/notification-groups/${UNKNOWN}`,
    message: 'Not Found',
  })
})

test('answers 500 with an errorId when getting a group by an id that is not an ObjectId', async () => {
  const res = await request(mock(), 'GET', '/v1/notification-groups/abc')
  expect(res.status).toBe(500)
  expect(withoutErrorId(res.body)).toEqual({
    statusCode: 500,
    path: '/v1/notification-groups/abc',
    message: INTERNAL_ERROR_MESSAGE,
  })
})

test('creates a group with 201, the id virtual and the first group of the organization as parent', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', {
    body: { name: 'Test delete group' },
  })
  expect(res.status).toBe(201)
  expect(Object.keys(res.body)).toEqual(['data'])
  const group = res.body.data
  expect(group).toEqual({
    _id: expect.stringMatching(OBJECT_ID),
    name: 'Test delete group',
    _environmentId: expect.stringMatching(OBJECT_ID),
    _organizationId: expect.stringMatching(OBJECT_ID),
    _parentId: GENERAL,
    createdAt: expect.stringMatching(ISO_DATE),
    updatedAt: expect.stringMatching(ISO_DATE),
    __v: 0,
    id: group._id,
  })
})

test('adds a created group to the end of the list, without the id virtual', async () => {
  const app = mock()
  const created = await request(app, 'POST', '/v1/notification-groups', {
    body: { name: 'Marketing' },
  })
  const res = await request(app, 'GET', '/v1/notification-groups')
  expect(res.status).toBe(200)
  expect(res.body.data).toHaveLength(5)
  const { id: _id, ...withoutVirtual } = created.body.data
  expect(res.body.data.at(-1)).toEqual(withoutVirtual)
})

test('allows two groups with the same name', async () => {
  const app = mock()
  const first = await request(app, 'POST', '/v1/notification-groups', { body: { name: 'General' } })
  const second = await request(app, 'POST', '/v1/notification-groups', {
    body: { name: 'General' },
  })
  expect(first.status).toBe(201)
  expect(second.status).toBe(201)
  expect(second.body.data._id).not.toBe(first.body.data._id)
})

test.each([
  { body: {}, message: ['name should not be null or undefined', 'name must be a string'] },
  {
    body: { name: null },
    message: ['name should not be null or undefined', 'name must be a string'],
  },
  { body: { name: 5 }, message: ['name must be a string'] },
])('answers 400 to a create body of $body', async ({ body, message }) => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', { body })
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path: '/v1/notification-groups',
    message,
    error: 'Bad Request',
  })
})

test('deletes a group with 200 and exactly the acknowledged body', async () => {
  const res = await request(mock(), 'DELETE', `/v1/notification-groups/${BILLING}`)
  expect(res.status).toBe(200)
  expect(res.text).toBe('{"data":{"acknowledged":true,"status":"deleted"}}')
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
})

test('answers 404 "Not Found" without an error key to a second delete', async () => {
  const app = mock()
  const first = await request(app, 'DELETE', `/v1/notification-groups/${BILLING}`)
  const second = await request(app, 'DELETE', `/v1/notification-groups/${BILLING}`)
  expect(first.status).toBe(200)
  expect(second.status).toBe(404)
  expect(withoutTimestamp(second.body)).toEqual({
    statusCode: 404,
    path: `/v1/notification-groups/${BILLING}`,
    message: 'Not Found',
  })
})

test('answers 404 to the delete of an unknown group', async () => {
  const res = await request(mock(), 'DELETE', `/v1/notification-groups/${UNKNOWN}`)
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: `/v1/notification-groups/${UNKNOWN}`,
    message: 'Not Found',
  })
})

test('answers 404 to a get after the delete, and drops the group from the list', async () => {
  const app = mock()
  await request(app, 'DELETE', `/v1/notification-groups/${BILLING}`)
  const get = await request(app, 'GET', `/v1/notification-groups/${BILLING}`)
  expect(get.status).toBe(404)
  expect(get.body.message).toBe('Not Found')
  const list = await request(app, 'GET', '/v1/notification-groups')
  expect(list.body.data.map((g: { _id: string }) => g._id)).not.toContain(BILLING)
  expect(list.body.data).toHaveLength(3)
})

test('creates, reads and deletes a group as the upstream e2e test does', async () => {
  const app = mock()
  const created = await request(app, 'POST', '/v1/notification-groups', {
    body: { name: 'Test delete group' },
  })
  const id = created.body.data.id
  const got = await request(app, 'GET', `/v1/notification-groups/${id}`)
  expect(got.status).toBe(200)
  expect(got.body.data).toMatchObject({
    _id: id,
    name: 'Test delete group',
    _environmentId: created.body.data._environmentId,
  })
  const deleted = await request(app, 'DELETE', `/v1/notification-groups/${id}`)
  expect(deleted.status).toBe(200)
  expect(deleted.body).toEqual({ data: { acknowledged: true, status: 'deleted' } })
  const after = await request(app, 'GET', `/v1/notification-groups/${id}`)
  expect(after.status).toBe(404)
})

test('answers 500 with an errorId when deleting by an id that is not an ObjectId', async () => {
  const res = await request(mock(), 'DELETE', '/v1/notification-groups/abc')
  expect(res.status).toBe(500)
  expect(withoutErrorId(res.body)).toEqual({
    statusCode: 500,
    path: '/v1/notification-groups/abc',
    message: INTERNAL_ERROR_MESSAGE,
  })
})

test('deletes a group that workflows use, and the workflows keep its id', async () => {
  const app = mock()
  const res = await request(app, 'DELETE', `/v1/notification-groups/${GENERAL}`)
  expect(res.status).toBe(200)
  const workflow = await request(app, 'GET', `/v1/workflows/${WELCOME_EMAIL}`)
  expect(workflow.status).toBe(200)
  expect(workflow.body.data._notificationGroupId).toBe(GENERAL)
})

test('lists a workflow of a deleted group with its group id and a null notificationGroup', async () => {
  const app = mock()
  await request(app, 'DELETE', `/v1/notification-groups/${BILLING}`)
  const res = await request(app, 'GET', '/v1/workflows?limit=100')
  expect(res.status).toBe(200)
  const orderShipped = res.body.data.find((w: { _id: string }) => w._id === ORDER_SHIPPED)
  expect(orderShipped._notificationGroupId).toBe(BILLING)
  expect(orderShipped.notificationGroup).toBeNull()
})

test('deletes a group with a Production key', async () => {
  const res = await request(mock(), 'DELETE', `/v1/notification-groups/${BILLING}`, {
    key: 'production-key',
  })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ data: { acknowledged: true, status: 'deleted' } })
})

test('gets a group by its upper-case id, as the ObjectId cast does', async () => {
  const res = await request(mock(), 'GET', `/v1/notification-groups/${BILLING.toUpperCase()}`)
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ _id: BILLING, id: BILLING, name: 'Billing' })
})

test('deletes a group by its upper-case id, as the ObjectId cast does', async () => {
  const app = mock()
  const res = await request(app, 'DELETE', `/v1/notification-groups/${BILLING.toUpperCase()}`)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ data: { acknowledged: true, status: 'deleted' } })
  expect((await request(app, 'GET', `/v1/notification-groups/${BILLING}`)).status).toBe(404)
})
