import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureIo, startTestMock } from './replay-helpers.js'
import { captureCommand } from '../src/capture/index.js'
import type { RunningMock } from '../src/server.js'

export { startTestMock }
export type Generation = '2024-10' | '2026-08'

export const SOURCE_KEY = 'sk_test_capture_source_1234567890'

/** A JSON call with the source key; the body parsed. */
export async function call(
  mock: RunningMock,
  method: string,
  path: string,
  body?: unknown,
  key = SOURCE_KEY
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

/** A file name in a fresh folder. */
export async function outFile(name: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'capture-')), name)
}

/** Runs the capture command in-process; exit code and what it wrote. */
export async function runCapture(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const { io, out } = captureIo()
  const code = await captureCommand(argv, { ...io, env, sleep: async () => undefined })
  return { code, ...out }
}

/** `capture --from URL --key SOURCE_KEY --out FILE …extra`, in-process. */
export const captureFrom = (from: string, file: string, ...extra: string[]) =>
  runCapture(['--from', from, '--key', SOURCE_KEY, '--out', file, ...extra])

/**
 * An environment built through the API as a team's would be: groups, workflows (v1 everywhere,
 * and the dashboard's /v2 ones where the server has them), subscribers, topics with members.
 */
export async function buildSourceState(mock: RunningMock, generation: Generation) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(mock, method, path, body)
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const billing = await ok('POST', '/v1/notification-groups', { name: 'Billing' })
  await ok('POST', '/v1/workflows', {
    name: 'Welcome email',
    notificationGroupId: billing.data._id,
    active: true,
    steps: [
      { template: { type: 'in_app', content: 'Welcome {{firstName}}' } },
      { template: { type: 'email', subject: 'Hi', content: 'Hello {{firstName}}' } },
    ],
  })
  if (generation === '2026-08')
    await ok('POST', '/v2/workflows', {
      name: 'Order shipped',
      workflowId: 'order-shipped',
      tags: ['orders'],
      steps: [
        {
          name: 'In-App',
          type: 'in_app',
          controlValues: { body: 'Order {{payload.orderId}} shipped' },
        },
        { name: 'Email', type: 'email', controlValues: { subject: 'Shipped', body: 'Your order' } },
      ],
    })
  for (const [subscriberId, firstName] of [
    ['ann', 'Ann'],
    ['bob', 'Bob'],
    ['cid', 'Cid'],
  ])
    await ok('POST', '/v1/subscribers', {
      subscriberId,
      firstName,
      email: `${subscriberId}@example.com`,
    })
  await ok('POST', '/v1/topics', { key: 'beta-users', name: 'Beta users' })
  await ok('POST', '/v1/topics/beta-users/subscribers', { subscribers: ['ann', 'bob'] })
  await ok('POST', '/v1/tenants', { identifier: 'acme', name: 'Acme' })
}
