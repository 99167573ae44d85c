// Issue #18, finding 7: a state export is one point in time. It is streamed in chunks, and
// whatever runs between them (the clock running due steps, writes) must not show in it: an
// export taken before a delay ran, fed back, still runs the delay and sends its message.
import { expect, test } from 'vitest'
import { request } from './helpers.js'
import { createWorkflow, fixedClockMock, inApp, messagesOf, trigger } from './trigger-helpers.js'

/** Enough subscribers (about 400 kB) that the export takes several chunks before its messages. */
const SUBSCRIBERS = Array.from({ length: 2000 }, (_, i) => ({
  subscriberId: `bulk-${i}`,
  data: { note: 'x'.repeat(120) },
}))

test('an export read while the clock runs a due delay holds the delay still waiting, and fed back sends its message', async () => {
  const mock = await fixedClockMock('2026-08')
  await mock.admin.importState('test-key', { subscribers: SUBSCRIBERS })
  const wf = await createWorkflow(mock.app, 'Later', [
    { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
    inApp('later'),
  ])
  await trigger(mock.app, { name: wf.identifier, to: 'ada', transactionId: 'tx-later' })

  const res = await mock.app.request('/__admin/state?apiKey=test-key')
  expect(res.status).toBe(200)
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const chunks: Uint8Array[] = []
  const first = await reader.read()
  chunks.push(first.value as Uint8Array)
  const moved = await request(mock.app, 'POST', '/__admin/clock?apiKey=test-key', {
    body: { advance: '5m' },
    key: null,
  })
  expect(moved.body.data.ran).toBe(1)
  expect(await messagesOf(mock.app, 'tx-later')).toHaveLength(1)
  for (let next = await reader.read(); !next.done; next = await reader.read())
    chunks.push(next.value)
  const exported = JSON.parse(Buffer.concat(chunks).toString('utf8'))

  expect(exported.subscribers).toHaveLength(SUBSCRIBERS.length + 1)
  expect(
    exported.messages.filter((m: { transactionId: string }) => m.transactionId === 'tx-later')
  ).toEqual([])
  const jobs = exported.notifications[0].jobs as { type: string; status: string }[]
  expect(jobs.map((j) => [j.type, j.status])).toEqual([
    ['trigger', 'completed'],
    ['delay', 'delayed'],
    ['in_app', 'pending'],
  ])

  await mock.admin.importState('copy', exported)
  await mock.admin.forKey('copy').advanceClock('5m')
  const copied = await messagesOf(mock.app, 'tx-later', 'copy')
  expect(copied.map((m) => m.content)).toEqual(['later'])
})
