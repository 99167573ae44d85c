import { Novu } from '@novu/node'
import { createAdminClient } from 'novu-mock'
import { beforeEach, expect, inject, test } from 'vitest'

// The README's per-test pattern: a key of the test's own, and a reset of just that environment.
const baseUrl = inject('novuMockUrl')
const admin = createAdminClient({ baseUrl })
const apiKey = 'global-setup-test'
const novu = new Novu(apiKey, { backendUrl: baseUrl })

beforeEach(() => admin.reset(apiKey))

test('the shared mock serves @novu/node, takes a fault rule and shows the calls in its journal', async () => {
  const groups = await novu.notificationGroups.get()
  const general = groups.data.data.find((g: { name: string }) => g.name === 'General')
  await admin.addRule({
    match: { method: 'POST', path: '/v1/notification-templates', apiKey },
    fault: { status: 503 },
    times: 1,
  })
  const failed = await novu.notificationTemplates
    .create({ name: 'Retry me', notificationGroupId: general._id, steps: [] })
    .catch((error: { response: { status: number } }) => error.response.status)
  expect(failed).toBe(503)
  const created = await novu.notificationTemplates.create({
    name: 'Retry me',
    notificationGroupId: general._id,
    steps: [],
  })
  expect(created.status).toBe(201)
  const calls = await admin.countRequests({
    method: 'POST',
    path: '/v1/notification-templates',
    apiKey,
  })
  expect(calls).toBe(2)
  const [last] = await admin.requests({ path: '/v1/notification-templates', apiKey, limit: 1 })
  expect(last).toMatchObject({ status: 201, matched: true })
})

test('a reset of the key gives the test its environment as the scenario built it', async () => {
  const before = await novu.topics.list({})
  expect(before.data.totalCount).toBe(23)
})
