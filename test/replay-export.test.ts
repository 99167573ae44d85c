import { expect, test } from 'vitest'
import { journalToScript, parseReplayScript, runReplay, scriptToYaml } from '../src/replay/index.js'
import { parse } from 'yaml'
import { startTestMock } from './replay-helpers.js'

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
  expect(script.steps.map((s) => s.expect?.status)).toEqual([200, 201, 200, 200, 204, 404, 401])

  const fresh = await startTestMock({ seed: 7 })
  const reloaded = parseReplayScript(parse(scriptToYaml(script)))
  const report = await runReplay(reloaded, { target: fresh.url, apiKey: KEY })
  expect(report.steps.flatMap((s) => s.failures)).toEqual([])
  expect(report.passed).toBe(7)
})
