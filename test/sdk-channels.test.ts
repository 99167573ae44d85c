import { Novu as NovuApi } from '@novu/api'
import { Novu as NovuNode } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keyFactory, mocksPerGeneration } from './sdk-helpers.js'
import { GENERATIONS } from './trigger-helpers.js'

// Integrations, credentials, online status and bulk create through both official SDKs, as
// application code calls them, in both generations.

const mocks = mocksPerGeneration(GENERATIONS)
const nextKey = keyFactory('sdk-channels')

beforeAll(() => mocks.start())
afterAll(() => mocks.close())

const url = mocks.url
const api = (generation: string, secretKey = nextKey()) =>
  new NovuApi({ secretKey, serverURL: url(generation), retryConfig: { strategy: 'none' } })
const node = (generation: string, key = nextKey()) =>
  new NovuNode(key, { backendUrl: url(generation) })

describe.each(GENERATIONS)('%s: @novu/node', (generation) => {
  test('integrations.create then setCredentials stores the FCM token', async () => {
    const novu = node(generation)
    const created = await novu.integrations.create('fcm', {
      channel: 'push' as never,
      credentials: {},
      active: true,
      check: false,
    })
    await novu.subscribers.identify('n1', { firstName: 'Ada' })

    const res = await novu.subscribers.setCredentials('n1', 'fcm', { deviceTokens: ['tok'] })

    expect(res.status).toBe(200)
    expect(res.data.data.channels).toEqual([
      {
        credentials: { deviceTokens: ['tok'] },
        _integrationId: created.data.data._id,
        providerId: 'fcm',
      },
    ])
  })

  test('setCredentials for a provider without an integration rejects with upstream 400', async () => {
    const novu = node(generation)
    await novu.subscribers.identify('n2', {})

    const error = await novu.subscribers
      .setCredentials('n2', 'apns', { deviceTokens: ['tok'] })
      .catch((e: { response: { status: number; data: { message: string } } }) => e)

    expect((error as { response: { status: number } }).response.status).toBe(400)
    expect((error as { response: { data: { message: string } } }).response.data.message).toMatch(
      /do not have active apns integration\.$/
    )
  })

  test('deleteCredentials answers 204 and the channel is gone', async () => {
    const key = nextKey()
    const novu = node(generation, key)

    const res = await novu.subscribers.deleteCredentials('user-3301', 'fcm')

    expect(res.status).toBe(204)
    const after = await novu.subscribers.get('user-3301')
    expect(after.data.data.channels).toEqual([])
  })

  test('bulkCreate answers 201 with created and updated', async () => {
    const novu = node(generation)

    const res = await novu.subscribers.bulkCreate([
      { subscriberId: 'b1', firstName: 'One' },
      { subscriberId: 'user-1042', lastName: 'L.' },
    ])

    expect(res.status).toBe(201)
    expect(res.data.data).toEqual({
      created: [{ subscriberId: 'b1' }],
      updated: [{ subscriberId: 'user-1042' }],
      failed: [],
    })
  })

  test('updateOnlineStatus sends online, which upstream refuses', async () => {
    const novu = node(generation)

    const error = (await novu.subscribers
      .updateOnlineStatus('user-1042', true)
      .catch((e: unknown) => e)) as { response: { status: number } }

    expect(error.response.status).toBe(generation === '2024-10' ? 400 : 422)
  })

  test('integrations.getAll lists the default scenario FCM integration', async () => {
    const res = await node(generation).integrations.getAll()

    expect(res.data.data.map((i: { providerId: string }) => i.providerId)).toContain('fcm')
  })
})

describe.each(GENERATIONS)('%s: @novu/api', (generation) => {
  test('credentials.update and append change the token list', async () => {
    const novu = api(generation)

    const put = await novu.subscribers.credentials.update(
      { providerId: 'fcm', credentials: { deviceTokens: ['a'] } },
      'user-3301'
    )
    const patched = await novu.subscribers.credentials.append(
      { providerId: 'fcm', credentials: { deviceTokens: ['b'] } },
      'user-3301'
    )

    expect(put.result.channels?.[0]?.credentials.deviceTokens).toEqual(['a'])
    expect(patched.result.channels?.[0]?.credentials.deviceTokens).toEqual(['a', 'b'])
  })

  test('credentials.delete resolves on 204', async () => {
    const novu = api(generation)

    await novu.subscribers.credentials.delete('user-3301', 'fcm')

    const res = await fetch(`${url(generation)}/v1/subscribers/user-3301`, {
      headers: { Authorization: `ApiKey ${nextKey()}` },
    })
    expect(res.status).toBe(200)
  })

  test('integrations.create and list', async () => {
    const novu = api(generation)

    const created = await novu.integrations.create({
      providerId: 'slack',
      channel: 'chat',
      active: true,
      credentials: {},
    })
    const list = await novu.integrations.list()

    expect(created.result).toMatchObject({ providerId: 'slack', active: true })
    expect(list.result.map((i) => i.providerId)).toContain('slack')
  })

  test('properties.updateOnlineFlag sets isOnline', async () => {
    const novu = api(generation)

    const res = await novu.subscribers.properties.updateOnlineFlag({ isOnline: true }, 'user-2210')

    expect(res.result.isOnline).toBe(true)
  })

  test('createBulk answers created, updated and failed', async () => {
    const novu = api(generation)

    const res = await novu.subscribers.createBulk({
      subscribers: [{ subscriberId: 'bulk-1' }, { subscriberId: 'bulk-1', firstName: 'B' }],
    })

    expect(res.result).toEqual({
      created: [{ subscriberId: 'bulk-1' }],
      updated: [{ subscriberId: 'bulk-1' }],
      failed: [],
    })
  })
})
