// A state export fed back keeps its records as sent: a job whose fields are missing or of the
// wrong type must be refused at the import, naming the field, not break a later request.
import { expect, test } from 'vitest'
import { request } from './helpers.js'
import { createWorkflow, fixedClockMock, inApp, trigger } from './trigger-helpers.js'

type Obj = Record<string, unknown>

/** A mock holding one notification waiting on a delay, and its export. */
async function exportWithDelayedJob() {
  const mock = await fixedClockMock('2026-08')
  const wf = await createWorkflow(mock.app, 'Later', [
    { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
    inApp('later'),
  ])
  await trigger(mock.app, { name: wf.identifier, to: 'ada', transactionId: 'tx-later' })
  const exported = (await request(mock.app, 'GET', '/__admin/state?apiKey=test-key', { key: null }))
    .body as Obj & { notifications: { jobs: Obj[] }[] }
  return { mock, exported }
}

/** The export with its delayed job changed. */
function withDelayedJob(exported: Obj & { notifications: { jobs: Obj[] }[] }, change: Obj) {
  const copy = structuredClone(exported)
  const job = copy.notifications[0]?.jobs[1] as Obj
  for (const [field, value] of Object.entries(change))
    if (value === undefined) delete job[field]
    else job[field] = value
  return copy
}

test('an export with a delayed job imports whole and the feed reads it', async () => {
  const { mock, exported } = await exportWithDelayedJob()
  const put = await request(mock.app, 'PUT', '/__admin/state?apiKey=copy', {
    key: null,
    body: exported,
  })
  expect(put.status).toBe(200)
  expect((await request(mock.app, 'GET', '/v1/notifications', { key: 'copy' })).status).toBe(200)
})

test.each([
  { field: 'step', change: { step: undefined } },
  { field: 'step', change: { step: 'x' } },
  { field: 'executionDetails', change: { executionDetails: undefined } },
  { field: 'executionDetails', change: { executionDetails: [1, null] } },
  { field: 'status', change: { status: 'sleeping' } },
  { field: 'dueAt', change: { dueAt: 'tomorrow' } },
  { field: 'dueAt', change: { dueAt: 1e300 } },
  { field: 'digest', change: { digest: 'x' } },
  { field: 'payload', change: { payload: 5 } },
  { field: '_id', change: { _id: { $oid: 'x' } } },
])(
  'a delayed job with a bad $field is refused naming it, the key unchanged',
  async ({ field, change }) => {
    const { mock, exported } = await exportWithDelayedJob()
    const res = await request(mock.app, 'PUT', '/__admin/state?apiKey=test-key', {
      key: null,
      body: withDelayedJob(exported, change),
    })
    // 2026-08 renders a refused body as its Validation Error, 422.
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.body)).toContain(`notifications.0.jobs.1.${field}`)
    const after = await request(mock.app, 'GET', '/__admin/state?apiKey=test-key', { key: null })
    expect(after.body).toEqual(exported)
    expect((await request(mock.app, 'GET', '/v1/notifications', { key: 'test-key' })).status).toBe(
      200
    )
  }
)
