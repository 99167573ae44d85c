import { expect } from 'vitest'
import { createMock } from '../src/mock.js'
import type { GenerationName } from '../src/generations/generation.js'
import { request, type Requestable } from './helpers.js'

export const GENERAL_GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'
export const GENERATIONS: GenerationName[] = ['2026-08', '2024-10']

/** A mock on the empty scenario with a fixed clock, so that times are known. */
export function triggerMock(apiGeneration: GenerationName, extra: Record<string, unknown> = {}) {
  return createMock({ apiGeneration, seed: 'trigger', scenario: 'empty', ...extra })
}

export const FIXED_AT = '2025-03-01T10:00:00.000Z'

/** A mock whose scenario fixes the clock (and declares what else it is given). */
export async function fixedClockMock(
  apiGeneration: GenerationName,
  data: Record<string, unknown> = {}
) {
  const mock = createMock({ apiGeneration, seed: 'trigger' })
  await mock.admin.loadScenario({
    name: 'fixed-clock',
    clock: { mode: 'fixed', at: FIXED_AT },
    data,
  })
  return mock
}

export interface StepInput {
  template: Record<string, unknown>
  [field: string]: unknown
}

export const inApp = (content: string, extra: Record<string, unknown> = {}): StepInput => ({
  template: { type: 'in_app', content, ...extra },
})
export const email = (subject: string, text: string): StepInput => ({
  template: { type: 'email', subject, content: [{ type: 'text', content: text }] },
})
export const sms = (content: string): StepInput => ({ template: { type: 'sms', content } })

/** Creates a workflow over POST /v1/workflows (active unless told), and answers its identifier. */
export async function createWorkflow(
  app: Requestable,
  name: string,
  steps: StepInput[],
  extra: Record<string, unknown> = {}
): Promise<{ identifier: string; _id: string }> {
  const res = await request(app, 'POST', '/v1/workflows', {
    body: { name, notificationGroupId: GENERAL_GROUP_ID, active: true, steps, ...extra },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { identifier: res.body.data.triggers[0].identifier, _id: res.body.data._id }
}

/** `count` subscriberIds: `s0`, `s1`, … (or with another prefix). */
export const recipients = (count: number, prefix = 's') =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`)

export const trigger = (app: Requestable, body: unknown, key?: string) =>
  request(app, 'POST', '/v1/events/trigger', { body, ...(key ? { key } : {}) })

export async function messagesOf(app: Requestable, transactionId: string, key?: string) {
  const res = await request(
    app,
    'GET',
    `/v1/messages?limit=100&transactionId=${encodeURIComponent(transactionId)}`,
    key ? { key } : {}
  )
  expect(res.status).toBe(200)
  return res.body.data as Record<string, any>[] // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function allMessages(app: Requestable) {
  const res = await request(app, 'GET', '/v1/messages?limit=1000')
  expect(res.status).toBe(200)
  return res.body.data as Record<string, any>[] // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** What a refused request must leave untouched: the environment's exported data. */
export async function snapshot(mock: ReturnType<typeof createMock>, key = 'test-key') {
  return JSON.stringify(await mock.admin.exportState(key))
}
