import { Novu as NovuApi } from '@novu/api'
import { Novu as NovuNode } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keyFactory, mocksPerGeneration } from './sdk-helpers.js'
import { GENERATIONS } from './trigger-helpers.js'

// Workflow update and delete through @novu/node (the only SDK with them) in both generations,
// and one topic subscription by identifier through @novu/api (2026-08 only).

const WELCOME_EMAIL_ID = '66fbb0a0c1f2e3d4a5b61001'
const SUBSCRIPTION = 'tk_team-alpha:si_user-1042'
const mocks = mocksPerGeneration(GENERATIONS)
const nextKey = keyFactory('sdk-edits')

beforeAll(() => mocks.start())
afterAll(() => mocks.close())

const url = mocks.url

describe.each(GENERATIONS)('%s: @novu/node notificationTemplates', (generation) => {
  const novu = () => new NovuNode(nextKey(), { backendUrl: url(generation) })

  test('update renames the workflow and answers it in data', async () => {
    // The SDK's type asks for the whole payload; upstream's DTO takes any part of it.
    const partial = { name: 'Welcome Email v2', tags: ['onboarding', 'v2'] }
    const res = await novu().notificationTemplates.update(
      WELCOME_EMAIL_ID,
      partial as Parameters<NovuNode['notificationTemplates']['update']>[1]
    )

    expect(res.status).toBe(200)
    expect(res.data.data).toMatchObject({ name: 'Welcome Email v2', tags: ['onboarding', 'v2'] })
  })

  test('delete answers data true and the workflow is gone', async () => {
    const client = novu()

    const res = await client.notificationTemplates.delete(WELCOME_EMAIL_ID)

    expect(res.status).toBe(200)
    expect(res.data).toEqual({ data: true })
    const error = (await client.notificationTemplates
      .getOne(WELCOME_EMAIL_ID)
      .catch((e: unknown) => e)) as { response: { status: number } }
    expect(error.response.status).toBe(404)
  })
})

describe('2026-08: @novu/api topics.subscriptions', () => {
  const novu = () =>
    new NovuApi({
      secretKey: nextKey(),
      serverURL: url('2026-08'),
      retryConfig: { strategy: 'none' },
    })

  test('getSubscription reads a seeded subscription by identifier', async () => {
    const res = await novu().topics.subscriptions.getSubscription('team-alpha', SUBSCRIPTION)

    expect(res.result.identifier).toBe(SUBSCRIPTION)
  })

  test('update renames it', async () => {
    const res = await novu().topics.subscriptions.update({
      topicKey: 'team-alpha',
      identifier: SUBSCRIPTION,
      updateTopicSubscriptionRequestDto: { name: 'Alpha, renamed' },
    })

    expect(res.result).toMatchObject({ identifier: SUBSCRIPTION, name: 'Alpha, renamed' })
  })
})
