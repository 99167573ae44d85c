import { Novu } from '@novu/api'
import { expect, test } from 'vitest'
import { startMock } from '../src/server.js'

// @novu/api retries 408, 409, 429 and 5xx by default and honours Retry-After-Ms (then
// Retry-After), so a small Retry-After-Ms keeps this test fast (novu-sdk-facts, "Retries").

test('@novu/api retries two 503s and resolves on the real answer', async () => {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  try {
    const unavailable = { status: 503, headers: { 'Retry-After-Ms': '20' } }
    mock.state.rules.add({
      id: 'flaky-delete',
      match: { method: 'DELETE', path: '/v1/messages/transaction/:transactionId' },
      sequence: [unavailable, unavailable, { pass: true }],
    })
    const novu = new Novu({ secretKey: 'sdk-chaos', serverURL: mock.url })

    await expect(novu.messages.deleteByTransactionId('tx-order-1001')).resolves.toBeDefined()

    const calls = mock.state.journal.list({ method: 'DELETE' }).reverse()
    expect(calls.map(({ status, rule }) => ({ status, rule }))).toEqual([
      { status: 503, rule: 'flaky-delete' },
      { status: 503, rule: 'flaky-delete' },
      { status: 204, rule: 'flaky-delete' },
    ])
    expect(mock.state.rules.list()).toEqual([])
  } finally {
    await mock.close()
  }
})

test('@novu/api waits the Retry-After-Ms of a 429 before retrying', async () => {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  try {
    mock.state.rules.add({
      match: { path: '/v1/messages/transaction/:transactionId' },
      fault: { status: 429, headers: { 'Retry-After-Ms': '150' } },
      times: 1,
    })
    const novu = new Novu({ secretKey: 'sdk-chaos', serverURL: mock.url })
    const started = performance.now()

    await novu.messages.deleteByTransactionId('tx-order-1001')

    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(mock.state.journal.list().map((e) => e.status)).toEqual([204, 429])
  } finally {
    await mock.close()
  }
})
