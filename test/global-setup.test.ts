import { Novu } from '@novu/node'
import { createAdminClient } from 'novu-mock'
import { beforeEach, expect, inject, test } from 'vitest'

// The README's per-file pattern: a key of the file's own, a scoped admin client, and a reset of
// just that key (its data, rules and journal entries) before each test.
const baseUrl = inject('novuMockUrl')
const apiKey = 'global-setup-test'
const admin = createAdminClient({ baseUrl }).forKey(apiKey)
const novu = new Novu(apiKey, { backendUrl: baseUrl })

beforeEach(() => admin.reset())

test('the shared mock serves @novu/node, takes a fault rule and shows the calls in its journal', async () => {
  const groups = await novu.notificationGroups.get()
  const general = groups.data.data.find((g: { name: string }) => g.name === 'General')
  await admin.addRule({
    match: { method: 'POST', path: '/v1/notification-templates' },
    fault: { status: 503 },
    times: 2,
  })
  const failed = await novu.notificationTemplates
    .create({ name: 'Retry me', notificationGroupId: general._id, steps: [] })
    .catch((error: { response: { status: number } }) => error.response.status)
  expect(failed).toBe(503)
  expect(await admin.countRequests({ method: 'POST', path: '/v1/notification-templates' })).toBe(1)
  const [last] = await admin.requests({ path: '/v1/notification-templates', limit: 1 })
  expect(last).toMatchObject({ status: 503, matched: true, outcome: { status: 503 } })
})

test('the rule the previous test left unused is gone after the reset', async () => {
  const created = await novu.notificationTemplates.create({
    name: 'Retry me',
    notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
    steps: [],
  })
  expect(created.status).toBe(201)
  expect(await admin.countRequests()).toBe(1)
})

test('a reset of the key gives the test its environment as the scenario built it', async () => {
  const before = await novu.topics.list({})
  expect(before.data.totalCount).toBe(23)
})
