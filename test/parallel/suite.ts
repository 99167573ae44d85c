import { beforeEach, expect, test } from 'vitest'
import { createAdminClient } from '../../src/admin/client.js'

const WAIT_MS = 25_000

/**
 * The README's per-file pattern, run by two files at once: each round, both files meet at a
 * barrier, then write, fault and count on their own key while the other does the same.
 */
export function isolatedSuite(own: string, other: string) {
  const baseUrl = process.env.NOVU_MOCK_URL ?? ''
  if (!baseUrl)
    throw new Error('NOVU_MOCK_URL is not set: run this through test/parallel-files.test.ts')
  const apiKey = `${own}-key`
  const admin = createAdminClient({ baseUrl }).forKey(apiKey)
  const send = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `ApiKey ${key}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    await res.arrayBuffer()
    return res.status
  }

  /** Says this file reached `point`, then waits until the other file has too. */
  async function meet(point: string) {
    await send('GET', '/v1/notification-groups', `barrier-${own}-${point}`)
    const theirs = createAdminClient({ baseUrl }).forKey(`barrier-${other}-${point}`)
    for (const started = Date.now(); Date.now() - started < WAIT_MS;) {
      if ((await theirs.countRequests()) > 0) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`the ${other} file never reached ${point}: the files did not run side by side`)
  }

  beforeEach(() => admin.reset())

  test.each([1, 2, 3, 4, 5])(
    `round %i: ${own} sees only its own data, rules and counts`,
    async (round) => {
      await meet(`${round}-start`)
      await admin.addRule({
        match: { method: 'POST', path: '/v1/workflows' },
        fault: { status: 503 },
        times: 3,
      })
      const workflow = { name: own, notificationGroupId: '66fbb0a0c1f2e3d4a5b60001', steps: [] }
      expect(await send('POST', '/v1/workflows', apiKey, workflow)).toBe(503)
      // The other file resets, adds its rule and writes while this one waits here.
      await meet(`${round}-middle`)
      expect(await admin.countRequests({ method: 'POST', path: '/v1/workflows' })).toBe(1)
      expect((await admin.rules()).data).toMatchObject([{ remaining: { times: 2 } }])
      const names = ((await admin.exportState()).workflows as { name: string }[]).map((w) => w.name)
      expect(names).not.toContain(other)
      await meet(`${round}-end`)
      expect(await admin.countRequests()).toBe(1)
    }
  )
}
