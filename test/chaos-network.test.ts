import { expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { MALFORMED_BODY } from '../src/chaos/faults.js'

const auth = { Authorization: 'ApiKey test' }

/** Starts a mock of its own with the given rules, runs the test, and always closes it. */
async function withMock(rules: unknown[], run: (mock: RunningMock) => Promise<void>) {
  const mock = await startMock({
    apiGeneration: '2024-10',
    port: 0,
    logLevel: 'silent',
    seed: 'chaos',
  })
  try {
    for (const rule of rules) {
      const res = await fetch(`${mock.url}/__admin/rules`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(rule),
      })
      if (res.status !== 201)
        throw new Error(`POST /__admin/rules answered ${res.status}: ${await res.text()}`)
    }
    await run(mock)
  } finally {
    await mock.close()
  }
}

/** The error a failed fetch rejects with, and the code of its cause. */
async function failure(request: Promise<Response>) {
  const error = await request.then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e as Error
  )
  return {
    name: error.name,
    message: error.message,
    code: (error.cause as { code?: string } | undefined)?.code,
  }
}

test('a reset fault makes fetch reject with ECONNRESET', async () => {
  await withMock([{ match: { path: '/v1/topics' }, fault: { network: 'reset' } }], async (mock) => {
    expect(await failure(fetch(`${mock.url}/v1/topics`, { headers: auth }))).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      code: 'ECONNRESET',
    })
  })
})

test('an empty reply closes the connection without a response', async () => {
  await withMock([{ match: { path: '/v1/topics' }, fault: { network: 'empty' } }], async (mock) => {
    expect(await failure(fetch(`${mock.url}/v1/topics`, { headers: auth }))).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      code: 'UND_ERR_SOCKET',
    })
  })
})

test('close() ends a hanging connection instead of waiting for the client', async () => {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  await mock.state.rules.add({ match: {}, fault: { network: 'hang' } })
  const hung = failure(fetch(`${mock.url}/v1/topics`, { headers: auth }))
  await new Promise((resolve) => setTimeout(resolve, 50))
  // A close() that waited on the hanging connection would never resolve: the test's timeout,
  // not a clock, fails it then.
  await mock.close()
  expect(await hung).toMatchObject({ message: 'fetch failed' })
})

test('the journal records a network fault with status 0 and its name', async () => {
  await withMock(
    [{ match: { path: '/v1/topics' }, fault: { network: 'reset' }, times: 1 }],
    async (mock) => {
      await failure(fetch(`${mock.url}/v1/topics`, { headers: auth }))
      expect((await fetch(`${mock.url}/v1/topics`, { headers: auth })).status).toBe(200)
      expect(
        mock.state.journal.list().map(({ status, rule, fault }) => ({ status, rule, fault }))
      ).toEqual([
        { status: 200, rule: undefined, fault: undefined },
        { status: 0, rule: 'rule-1', fault: 'reset' },
      ])
    }
  )
})

test('malformed JSON reaches the client as a 200 whose body does not parse', async () => {
  await withMock(
    [{ match: { path: '/v1/topics' }, fault: { network: 'malformed' } }],
    async (mock) => {
      const res = await fetch(`${mock.url}/v1/topics`, { headers: auth })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.clone().text()).toBe(MALFORMED_BODY)
      await expect(res.json()).rejects.toThrow(SyntaxError)
    }
  )
})

test('slow-body sends the headers, then the real body over time', async () => {
  await withMock([], async (mock) => {
    const expected = await (await fetch(`${mock.url}/v1/topics`, { headers: auth })).text()
    await mock.state.rules.add({
      match: { path: '/v1/topics' },
      fault: { network: 'slow-body', chunkBytes: Math.ceil(expected.length / 5), intervalMs: 30 },
    })
    const res = await fetch(`${mock.url}/v1/topics`, { headers: auth })
    const headersAt = performance.now()
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(expected)
    // Headers first, then five chunks 30 ms apart: at least four intervals after the headers.
    expect(performance.now() - headersAt).toBeGreaterThanOrEqual(4 * 30 - 10)
  })
})

// After a client aborts, undici opens a fresh keep-alive connection that server.close() waits
// for until undici drops it (about 4 s), so the tests that abort run side by side (with the
// test's own `expect`, as concurrent tests need).
test.concurrent(
  'a hang lasts until the client times out, while other requests are answered',
  async ({ expect }) => {
    await withMock(
      [{ match: { path: '/v1/topics' }, fault: { network: 'hang' } }],
      async (mock) => {
        await fetch(`${mock.url}/v1/workflows`, { headers: auth }) // builds the environment first
        const started = performance.now()
        let settled = false
        const hung = failure(
          fetch(`${mock.url}/v1/topics`, { headers: auth, signal: AbortSignal.timeout(500) })
        ).finally(() => (settled = true))
        const other = await fetch(`${mock.url}/v1/workflows`, { headers: auth })
        expect(other.status).toBe(200)
        expect(settled).toBe(false)
        expect(await hung).toMatchObject({ name: 'TimeoutError' })
        expect(performance.now() - started).toBeGreaterThanOrEqual(490)
      }
    )
  }
)

test.concurrent('a client can give up halfway through a slow body', async ({ expect }) => {
  await withMock(
    [{ match: {}, fault: { network: 'slow-body', chunkBytes: 1, intervalMs: 20 } }],
    async (mock) => {
      // Given up once the headers are in, however long they took on a loaded machine.
      const leave = new AbortController()
      const res = await fetch(`${mock.url}/v1/topics`, { headers: auth, signal: leave.signal })
      expect(res.status).toBe(200)
      const body = res.text()
      leave.abort()
      await expect(body).rejects.toMatchObject({ name: 'AbortError' })
    }
  )
})

test.concurrent(
  'a client that leaves during a long delay is journalled as 499',
  async ({ expect }) => {
    await withMock([{ match: { path: '/v1/topics' }, delay: 60_000 }], async (mock) => {
      await failure(
        fetch(`${mock.url}/v1/topics`, { headers: auth, signal: AbortSignal.timeout(100) })
      )
      await expect.poll(() => mock.state.journal.list()[0]?.status).toBe(499)
    })
  }
)
