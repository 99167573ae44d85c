import { describe, expect, test } from 'vitest'
import { request, withoutTimestamp } from '../../../test/helpers.js'
import { GENERATIONS, triggerMock } from '../../../test/trigger-helpers.js'

// Credentials, online status and bulk create (subscriber facts §2, §5, §6), in both generations.

type App = ReturnType<typeof triggerMock>['app']

async function setUp(generation: (typeof GENERATIONS)[number], providers = ['fcm']) {
  const { app } = triggerMock(generation)
  await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 'u1', firstName: 'Ada' } })
  const ids: string[] = []
  for (const providerId of providers) {
    const res = await request(app, 'POST', '/v1/integrations', {
      body: { providerId, channel: providerId === 'slack' ? 'chat' : 'push', active: true },
    })
    expect(res.status).toBe(201)
    ids.push(res.body.data._id)
  }
  return { app, ids }
}

const put = (app: App, body: unknown, method = 'PUT', id = 'u1') =>
  request(app, method, `/v1/subscribers/${id}/credentials`, { body })

describe.each(GENERATIONS)('%s: PUT /v1/subscribers/:id/credentials', (generation) => {
  test('stores the device tokens once each, on the newest active integration', async () => {
    const { app, ids } = await setUp(generation)

    const res = await put(app, { providerId: 'fcm', credentials: { deviceTokens: ['t1', 't1'] } })

    expect(res.status).toBe(200)
    expect(res.body.data.channels).toEqual([
      { credentials: { deviceTokens: ['t1'] }, _integrationId: ids[0], providerId: 'fcm' },
    ])
    expect(res.body.data).toMatchObject({ subscriberId: 'u1', firstName: 'Ada' })
  })

  test('keeps only webhookUrl, deviceTokens and channel of the credentials', async () => {
    const { app } = await setUp(generation, ['slack'])

    const res = await put(app, {
      providerId: 'slack',
      credentials: {
        webhookUrl: 'https://hooks.example/1',
        title: 'x',
        alertUid: 'y',
        channel: null,
      },
    })

    expect(res.body.data.channels[0].credentials).toEqual({ webhookUrl: 'https://hooks.example/1' })
  })

  test('PUT replaces the stored device tokens, PATCH adds to them', async () => {
    const { app } = await setUp(generation)
    await put(app, { providerId: 'fcm', credentials: { deviceTokens: ['a'] } })

    const patched = await put(
      app,
      { providerId: 'fcm', credentials: { deviceTokens: ['b'] } },
      'PATCH'
    )
    expect(patched.body.data.channels[0].credentials.deviceTokens).toEqual(['a', 'b'])

    const replaced = await put(app, { providerId: 'fcm', credentials: { deviceTokens: ['c'] } })
    expect(replaced.body.data.channels[0].credentials.deviceTokens).toEqual(['c'])
  })

  test('a body without deviceTokens leaves the channel with none, as upstream merges', async () => {
    const { app } = await setUp(generation, ['slack'])
    await put(app, { providerId: 'slack', credentials: { webhookUrl: 'https://a.example' } })

    const res = await put(app, {
      providerId: 'slack',
      credentials: { webhookUrl: 'https://b.example' },
    })

    expect(res.body.data.channels[0].credentials).toEqual({
      webhookUrl: 'https://b.example',
      deviceTokens: [],
    })
  })

  test('a provider without an active integration answers 400 and changes nothing', async () => {
    const { app } = await setUp(generation, [])

    const res = await put(app, { providerId: 'fcm', credentials: { deviceTokens: ['t'] } })

    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(
      /^Subscribers environment \([0-9a-f]{24}\) do not have active fcm integration\.$/
    )
    const after = await request(app, 'GET', '/v1/subscribers/u1')
    expect(after.body.data.channels).toEqual([])
  })

  test('an unknown subscriber answers 400 SubscriberId: <id> not found', async () => {
    const { app } = await setUp(generation)

    const res = await put(app, { providerId: 'fcm', credentials: {} }, 'PUT', 'nobody')

    expect(res.status).toBe(400)
    expect(res.body.message).toBe('SubscriberId: nobody not found')
  })

  test('the empty body lists every message of the DTO', async () => {
    const { app } = await setUp(generation)

    const res = await put(app, {})

    const provider =
      generation === '2024-10'
        ? 'providerId must be a string'
        : 'providerId must be a valid provider ID'
    const messages = [
      'providerId should not be null or undefined',
      provider,
      'credentials should not be null or undefined',
      'credentials must be an object',
    ]
    if (generation === '2024-10') expect(res.body.message).toEqual(messages)
    else expect(res.body.errors.general.messages).toEqual(messages)
  })

  test('credentials as an array are refused: credentials must be an object', async () => {
    const { app } = await setUp(generation)

    const res = await put(app, { providerId: 'fcm', credentials: [] })

    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain('credentials must be an object')
  })
})

describe('device-token limit and provider enum differ by generation', () => {
  test('2026-08 refuses 101 tokens with currentCount and limit, no error key', async () => {
    const { app } = await setUp('2026-08')
    const tokens = Array.from({ length: 101 }, (_, i) => `t${i}`)

    const res = await put(app, { providerId: 'fcm', credentials: { deviceTokens: tokens } })

    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      currentCount: 101,
      limit: 100,
      statusCode: 400,
      path: '/v1/subscribers/u1/credentials',
      message:
        'Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is 100, but got 101 tokens.',
      ctx: { currentCount: 101, limit: 100 },
    })
  })

  test('2026-08 takes exactly 100 tokens', async () => {
    const { app } = await setUp('2026-08')
    const tokens = Array.from({ length: 100 }, (_, i) => `t${i}`)

    const res = await put(app, { providerId: 'fcm', credentials: { deviceTokens: tokens } })

    expect(res.status).toBe(200)
  })

  test('2024-10 has no token limit', async () => {
    const { app } = await setUp('2024-10')
    const tokens = Array.from({ length: 150 }, (_, i) => `t${i}`)

    const res = await put(app, { providerId: 'fcm', credentials: { deviceTokens: tokens } })

    expect(res.status).toBe(200)
    expect(res.body.data.channels[0].credentials.deviceTokens).toHaveLength(150)
  })

  test('2024-10 takes any providerId string, 2026-08 only chat and push providers', async () => {
    const old = await setUp('2024-10', [])
    const now = await setUp('2026-08', [])

    const a = await put(old.app, { providerId: 'bogus', credentials: {} })
    const b = await put(now.app, { providerId: 'bogus', credentials: {} })

    expect(a.status).toBe(400)
    expect(a.body.message).toContain('do not have active bogus integration')
    expect(b.status).toBe(422)
    expect(b.body.errors.general.messages).toEqual(['providerId must be a valid provider ID'])
  })
})

describe.each(GENERATIONS)(
  '%s: DELETE /v1/subscribers/:id/credentials/:providerId',
  (generation) => {
    test('removes the provider channel, answers 204 with no body, keeps the others', async () => {
      const { app } = await setUp(generation, ['fcm', 'slack'])
      await put(app, { providerId: 'fcm', credentials: { deviceTokens: ['t'] } })
      await put(app, { providerId: 'slack', credentials: { webhookUrl: 'https://a.example' } })

      const res = await request(app, 'DELETE', '/v1/subscribers/u1/credentials/fcm')

      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      const after = await request(app, 'GET', '/v1/subscribers/u1')
      expect(after.body.data.channels.map((c: { providerId: string }) => c.providerId)).toEqual([
        'slack',
      ])
    })

    test('an unknown subscriber answers 404 in the words of the generation', async () => {
      const { app } = await setUp(generation)

      const res = await request(app, 'DELETE', '/v1/subscribers/ghost/credentials/fcm')

      expect(res.status).toBe(404)
      expect(res.body.message).toBe(
        generation === '2024-10'
          ? 'Subscriber not found for id ghost'
          : "Subscriber 'ghost' was not found"
      )
    })
  }
)

describe.each(GENERATIONS)('%s: the v2 forms do not exist', (generation) => {
  test.each([
    ['PUT', '/v2/subscribers/u1/credentials'],
    ['POST', '/v2/subscribers/bulk'],
  ])('%s %s answers Express 404', async (method, path) => {
    const { app } = await setUp(generation)

    const res = await request(app, method, path, { body: {} })

    expect(res.status).toBe(404)
    expect(res.body.message).toBe(`Cannot ${method} ${path}`)
  })
})

describe.each(GENERATIONS)('%s: PATCH /v1/subscribers/:id/online-status', (generation) => {
  test('false sets isOnline false and lastOnlineAt to now', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'PATCH', '/v1/subscribers/u1/online-status', {
      body: { isOnline: false },
    })

    expect(res.status).toBe(200)
    expect(res.body.data.isOnline).toBe(false)
    expect(typeof res.body.data.lastOnlineAt).toBe('string')
  })

  test('true sets isOnline true', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'PATCH', '/v1/subscribers/u1/online-status', {
      body: { isOnline: true },
    })

    expect(res.body.data.isOnline).toBe(true)
  })

  test('the legacy SDK field online is refused: isOnline is required', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'PATCH', '/v1/subscribers/u1/online-status', {
      body: { online: true },
    })

    expect(res.text).toContain('isOnline should not be null or undefined')
    expect(res.text).toContain('isOnline must be a boolean value')
  })

  test('an unknown subscriber answers 404 Subscriber not found', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'PATCH', '/v1/subscribers/nope/online-status', {
      body: { isOnline: true },
    })

    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Subscriber not found')
  })
})

describe.each(GENERATIONS)('%s: POST /v1/subscribers/bulk', (generation) => {
  test('a repeated id is created first, updated after; existing ones are updated', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'POST', '/v1/subscribers/bulk', {
      body: {
        subscribers: [
          { subscriberId: 'test1' },
          { subscriberId: 'test2' },
          { subscriberId: 'u1', lastName: 'Lovelace' },
          { subscriberId: 'test2', firstName: 'Two' },
        ],
      },
    })

    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      updated: [{ subscriberId: 'u1' }, { subscriberId: 'test2' }],
      created: [{ subscriberId: 'test1' }, { subscriberId: 'test2' }],
      failed: [],
    })
    const u1 = await request(app, 'GET', '/v1/subscribers/u1')
    expect(u1.body.data).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' })
    const two = await request(app, 'GET', '/v1/subscribers/test2')
    expect(two.body.data.firstName).toBe('Two')
  })

  test('501 subscribers are refused in the generation words and nothing is created', async () => {
    const { app } = await setUp(generation)
    const subscribers = Array.from({ length: 501 }, (_, i) => ({ subscriberId: `s${i}` }))

    const res = await request(app, 'POST', '/v1/subscribers/bulk', { body: { subscribers } })

    const text = 'subscribers must contain no more than 500 elements'
    if (generation === '2024-10') {
      expect(res.status).toBe(400)
      expect(res.body.message[0]).toBe(text)
    } else {
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(
        `Validation failed for BulkCreateSubscribersCommand: subscribers: ${text}`
      )
    }
    expect((await request(app, 'GET', '/v1/subscribers/s0')).status).toBe(404)
  })

  test('an element without subscriberId is named by its index', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'POST', '/v1/subscribers/bulk', { body: { subscribers: [{}] } })

    const messages =
      generation === '2024-10'
        ? [
            'subscribers.0.subscriberId should not be null or undefined',
            'subscribers.0.subscriberId must be a string',
          ]
        : [
            'subscribers.0.subscriberId should not be null or undefined',
            'subscribers.0.SubscriberId is required',
            'subscribers.0.subscriberId must be a string',
          ]
    if (generation === '2024-10') expect(res.body.message).toEqual(messages)
    else expect(res.body.errors.general.messages).toEqual(messages)
  })

  test('the empty list is refused: subscribers should not be empty', async () => {
    const { app } = await setUp(generation)

    const res = await request(app, 'POST', '/v1/subscribers/bulk', { body: { subscribers: [] } })

    expect(res.text).toContain('["subscribers should not be empty"]')
  })
})

describe('bulk after a delete', () => {
  test.each([
    ['2024-10', 'updated'],
    ['2026-08', 'created'],
  ] as const)('%s reports a deleted subscriber sent again as %s', async (generation, list) => {
    const { app } = await setUp(generation)
    await request(app, 'DELETE', '/v1/subscribers/u1')

    const res = await request(app, 'POST', '/v1/subscribers/bulk', {
      body: { subscribers: [{ subscriberId: 'u1' }] },
    })

    expect(res.body.data[list]).toEqual([{ subscriberId: 'u1' }])
    expect((await request(app, 'GET', '/v1/subscribers/u1')).status).toBe(200)
  })
})
