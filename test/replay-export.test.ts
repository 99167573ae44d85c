import { expect, test } from 'vitest'
import { journalToScript, parseReplayScript, runReplay, scriptToYaml } from '../src/replay/index.js'
import { parse } from 'yaml'
import { startTestMock } from './replay-helpers.js'
import { createAdminClient } from '../src/admin/client.js'

const KEY = 'recorded-key'

async function call(url: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Authorization: `ApiKey ${KEY}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  await res.arrayBuffer()
  return res.status
}

/** A session with reads, writes, a 4xx, a query and an unauthenticated call. */
async function recordSession(url: string) {
  await call(url, 'GET', '/v1/notification-groups')
  await call(url, 'POST', '/v1/workflows', {
    name: 'Recorded',
    notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
    steps: [{ template: { type: 'in_app', content: 'Hi {{firstName}}' } }],
  })
  await call(url, 'GET', '/v1/workflows/recorded')
  await call(url, 'GET', '/v1/topics?key=team-alpha&pageSize=2')
  await call(url, 'DELETE', '/v1/messages/transaction/tx-order-1001?channel=sms')
  await call(url, 'DELETE', '/v1/messages/transaction/no-such-tx')
  await fetch(`${url}/v1/topics`).then((res) => res.arrayBuffer())
}

test('replays a recorded session green against a fresh mock with the same seed', async () => {
  const recorder = await startTestMock({ seed: 7 })
  await recordSession(recorder.url)
  const script = journalToScript(recorder.state.journal.list(), { name: 'session' })
  expect(script.steps.filter((s) => s.request).map((s) => s.expect?.status)).toEqual([
    200, 201, 200, 200, 204, 404, 401,
  ])

  const fresh = await startTestMock({ seed: 7 })
  const reloaded = parseReplayScript(parse(scriptToYaml(script)))
  const report = await runReplay(reloaded, { target: fresh.url, apiKey: KEY })
  expect(report.steps.flatMap((s) => s.failures)).toEqual([])
  expect(report.passed).toBe(8)
})

/**
 * A session on one key with an id the mock made, a chaos rule's 503 and a retry, and a
 * connection reset: what a test run records.
 */
async function recordFaultySession(url: string, key: string) {
  const admin = createAdminClient({ baseUrl: url }).forKey(key)
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        Authorization: `ApiKey ${key}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).catch(() => undefined)
    await res?.arrayBuffer()
    return res?.status ?? 0
  }
  const created = await fetch(`${url}/v1/workflows`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Session',
      notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
      steps: [],
    }),
  }).then((res) => res.json() as Promise<{ data: { _id: string } }>)
  await admin.addRule({
    match: { method: 'PUT', path: '/v1/workflows/:id/status' },
    fault: { status: 503 },
    times: 1,
  })
  expect(await send('PUT', `/v1/workflows/${created.data._id}/status`, { active: true })).toBe(503)
  expect(await send('PUT', `/v1/workflows/${created.data._id}/status`, { active: true })).toBe(200)
  await admin.addRule({ match: { path: '/v1/topics' }, fault: { network: 'reset' }, times: 1 })
  expect(await send('GET', '/v1/topics')).toBe(0)
  expect(await send('GET', `/v1/workflows/${created.data._id}`)).toBe(200)
  return created.data._id
}

test('an exported session replays green on another key, twice in a row, on the same mock', async () => {
  const mock = await startTestMock({ apiGeneration: '2026-08' })
  await recordFaultySession(mock.url, 'recorder')
  const yaml = await fetch(
    `${mock.url}/__admin/requests/export?format=yaml&apiKey=recorder&name=session`
  ).then((res) => res.text())
  const script = parseReplayScript(parse(yaml))

  for (const run of [1, 2]) {
    const report = await runReplay(script, { target: mock.url, apiKey: 'replayer' })
    expect(
      report.steps.flatMap((s) => s.failures),
      `run ${run}`
    ).toEqual([])
    expect(report.failed).toBe(0)
  }
})

test('an exported script sends ids the mock made by name, saved from the answer that made them', async () => {
  const mock = await startTestMock({ apiGeneration: '2026-08' })
  const id = await recordFaultySession(mock.url, 'recorder')
  const script = journalToScript(mock.state.journal.list({ apiKey: 'recorder' }))
  const text = JSON.stringify(script.steps)
  expect(text).not.toContain(id)
  expect(script.steps.find((s) => s.save)?.save).toEqual({ workflowId: '$.data._id' })
  expect(script.steps.filter((s) => s.request?.path.includes('{{workflowId}}'))).toHaveLength(3)
})

test('an exported script gives a faulted call its rule first and leaves out the connection reset', async () => {
  const mock = await startTestMock({ apiGeneration: '2026-08' })
  await recordFaultySession(mock.url, 'recorder')
  const script = journalToScript(mock.state.journal.list({ apiKey: 'recorder' }))
  const kinds = script.steps.map((s) =>
    s.admin ? Object.keys(s.admin)[0] : `${s.request?.method} ${s.expect?.status}`
  )
  expect(kinds).toEqual(['reset', 'POST 201', 'addRule', 'PUT 503', 'PUT 200', 'GET 200'])
  expect(script.description).toMatch(/Left out: GET \/v1\/topics .*reset/)
})

test('with --skip-admin an exported script skips the calls only a chaos rule answered', async () => {
  const mock = await startTestMock({ apiGeneration: '2026-08' })
  await recordFaultySession(mock.url, 'recorder')
  const script = journalToScript(mock.state.journal.list({ apiKey: 'recorder' }))
  const report = await runReplay(script, { target: mock.url, apiKey: 'plain', skipAdmin: true })
  expect(report.steps.filter((s) => s.skipped).map((s) => s.method)).toEqual([
    'POST',
    'POST',
    'PUT',
  ])
  expect(report.failed).toBe(0)
})
