import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

// The subscribers a bulk create makes and the tokens credentials keep count against
// --max-memory-mb: past it the answer is the budget's 403 and nothing more is stored.

test('bulk creates past the memory budget answer 403 naming --max-memory-mb and store nothing', async () => {
  const { app } = createMock({
    scenario: 'empty',
    maxMemoryMb: 48,
    journalSize: 10,
    logLevel: 'silent',
  })
  let refused
  let batches = 0
  while (!refused && batches < 400) {
    const subscribers = Array.from({ length: 500 }, (_, i) => ({
      subscriberId: `b${batches}-${i}`,
      data: { note: 'x'.repeat(60) },
    }))
    const res = await request(app, 'POST', '/v1/subscribers/bulk', { body: { subscribers } })
    if (res.status !== 201) refused = res
    else batches++
  }

  expect(refused?.status).toBe(403)
  expect(refused?.body.message).toMatch(/--max-memory-mb/)
  const list = await request(app, 'GET', `/v1/subscribers/b${batches}-0`)
  expect(list.status).toBe(404)
})
