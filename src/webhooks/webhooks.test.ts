import { expect, test } from 'vitest'
import { createMock } from '../mock.js'

const JSON_HEADERS = { 'content-type': 'application/json' }
const post = (body: unknown) => ({
  method: 'POST',
  headers: JSON_HEADERS,
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const read = async (res: Response) => (await res.json()) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const URL_A = 'http://127.0.0.1:9/hooks'

test('adding an endpoint answers 201 with its id, events and a generated whsec_ secret', async () => {
  const { app } = createMock()
  const res = await app.request('/__admin/webhooks?apiKey=k1', post({ url: URL_A }))
  expect(res.status).toBe(201)
  const { data } = await read(res)
  expect(data).toMatchObject({ url: URL_A, events: null, source: 'admin', failing: false })
  expect(data.id).toMatch(/^ep_[0-9A-Za-z]{27}$/)
  expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
  expect(data.apiKey).not.toBe('k1')
})

test('the same seed and requests give the same endpoint ids and secrets', async () => {
  const made = async () => {
    const { app } = createMock({ seed: 7 })
    return (await read(await app.request('/__admin/webhooks?apiKey=k1', post({ url: URL_A })))).data
  }
  const [a, b] = [await made(), await made()]
  expect([a.id, a.secret]).toEqual([b.id, b.secret])
})

test('another seed gives another secret', async () => {
  const secretOf = async (seed: number) => {
    const { app } = createMock({ seed })
    return (await read(await app.request('/__admin/webhooks', post({ url: URL_A })))).data.secret
  }
  expect(await secretOf(1)).not.toBe(await secretOf(2))
})

test('a given secret and event list are kept', async () => {
  const { app } = createMock()
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
  const body = { url: URL_A, events: ['message.sent', 'workflow.created'], secret }
  const { data } = await read(await app.request('/__admin/webhooks', post(body)))
  expect(data).toMatchObject({ events: ['message.sent', 'workflow.created'], secret, apiKey: null })
})

test.each([
  [
    'a URL that is not http',
    { url: 'ftp://example.com/x' },
    'url must be an http:// or https:// URL',
  ],
  ['an unknown event type', { url: URL_A, events: ['messages.sent'] }, 'events.0'],
  ['a secret without whsec_', { url: URL_A, secret: 'c2VjcmV0c2VjcmV0c2VjcmV0' }, 'secret must be'],
  ['a secret of 3 bytes', { url: URL_A, secret: 'whsec_YWJj' }, 'secret must be'],
  ['an unknown field', { url: URL_A, filter: 'x' }, 'filter'],
  ['a URL of 3000 characters', { url: `http://a.example/${'x'.repeat(3000)}` }, 'url'],
  ['a URL with odd unicode', { url: 'http://\u{1F600}\u0000/' }, 'url'],
])(
  '2024-10: adding an endpoint with %s answers 400 in the admin error shape',
  async (_, body, text) => {
    const { app } = createMock({ apiGeneration: '2024-10' })
    const res = await app.request('/__admin/webhooks', post(body))
    expect(res.status).toBe(400)
    const error = await read(res)
    expect(error).toMatchObject({ statusCode: 400, path: '/__admin/webhooks' })
    expect(JSON.stringify(error)).toContain(text)
  }
)

test('adding an endpoint with malformed JSON answers 400', async () => {
  const { app } = createMock()
  const res = await app.request('/__admin/webhooks', post('{"url": '))
  expect(res.status).toBe(400)
  expect(await read(res)).toMatchObject({ statusCode: 400 })
})

test('the 101st endpoint of a key answers 403 naming the limit', async () => {
  const { app } = createMock()
  for (let i = 0; i < 100; i++)
    expect((await app.request('/__admin/webhooks?apiKey=k', post({ url: URL_A }))).status).toBe(201)
  const res = await app.request('/__admin/webhooks?apiKey=k', post({ url: URL_A }))
  expect(res.status).toBe(403)
  expect((await read(res)).message).toContain('at most 100 webhook endpoints per API key')
})

test("listing with an apiKey shows the key's endpoints and the global ones, not another key's", async () => {
  const { app } = createMock()
  await app.request('/__admin/webhooks?apiKey=mine', post({ url: `${URL_A}/mine` }))
  await app.request('/__admin/webhooks?apiKey=theirs', post({ url: `${URL_A}/theirs` }))
  await app.request('/__admin/webhooks', post({ url: `${URL_A}/all` }))
  const { data, queue } = await read(await app.request('/__admin/webhooks?apiKey=mine'))
  expect(data.map((e: { url: string }) => e.url)).toEqual([`${URL_A}/mine`, `${URL_A}/all`])
  expect(queue).toEqual({ waiting: 0, scheduled: 0, limit: 1000 })
})

test('deleting an endpoint answers it, and a second delete answers 404', async () => {
  const { app } = createMock()
  const { data } = await read(await app.request('/__admin/webhooks', post({ url: URL_A })))
  const first = await app.request(`/__admin/webhooks/${data.id}`, { method: 'DELETE' })
  expect(first.status).toBe(200)
  expect((await read(first)).data.id).toBe(data.id)
  const second = await app.request(`/__admin/webhooks/${data.id}`, { method: 'DELETE' })
  expect(second.status).toBe(404)
  expect(await read(second)).toMatchObject({
    statusCode: 404,
    message: `No webhook endpoint with id ${data.id}`,
  })
})

test("a per-key reset removes the key's endpoints and keeps the other keys'", async () => {
  const { app } = createMock()
  await app.request('/__admin/webhooks?apiKey=a', post({ url: URL_A }))
  await app.request('/__admin/webhooks?apiKey=b', post({ url: URL_A }))
  expect((await app.request('/__admin/reset?apiKey=a', { method: 'POST' })).status).toBe(200)
  expect((await read(await app.request('/__admin/webhooks?apiKey=a'))).data).toEqual([])
  expect((await read(await app.request('/__admin/webhooks?apiKey=b'))).data).toHaveLength(1)
})

test("a scenario's webhooks are declared on load and come back after a reset", async () => {
  const { app } = createMock()
  const scenario = {
    name: 'with-webhooks',
    fixture: 'default',
    webhooks: [{ url: URL_A, events: ['message.sent'], apiKey: 'declared' }],
  }
  expect((await app.request('/__admin/scenario', post({ scenario }))).status).toBe(200)
  const listed = await read(await app.request('/__admin/webhooks'))
  expect(listed.data).toMatchObject([{ url: URL_A, events: ['message.sent'], source: 'scenario' }])
  await app.request('/__admin/webhooks?apiKey=declared', post({ url: `${URL_A}/extra` }))
  await app.request('/__admin/reset?apiKey=declared', { method: 'POST' })
  const after = await read(await app.request('/__admin/webhooks'))
  expect(after.data.map((e: { url: string }) => e.url)).toEqual([URL_A])
  expect(after.data[0].secret).toBe(listed.data[0].secret)
})

test('2026-08: adding an endpoint with a bad URL answers 422 with the field in errors', async () => {
  const { app } = createMock()
  const res = await app.request('/__admin/webhooks', post({ url: 'ftp://example.com/x' }))
  expect(res.status).toBe(422)
  const error = await read(res)
  expect(error).toMatchObject({ statusCode: 422, path: '/__admin/webhooks' })
  expect(JSON.stringify(error.errors)).toContain('url must be an http:// or https:// URL')
})

test('a scenario with a malformed webhook is refused whole', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const scenario = { name: 'bad-webhooks', webhooks: [{ url: 'not a url' }] }
  const res = await app.request('/__admin/scenario', post({ scenario }))
  expect(res.status).toBe(400)
  expect(JSON.stringify(await read(res))).toContain('webhooks.0.url')
})

test('testing a global endpoint without an apiKey answers 400 saying which key to name', async () => {
  const { app } = createMock()
  const { data } = await read(await app.request('/__admin/webhooks', post({ url: URL_A })))
  const res = await app.request(`/__admin/webhooks/${data.id}/test`, post({}))
  expect(res.status).toBe(400)
  expect((await read(res)).message).toContain('?apiKey=')
})

test('testing an unknown endpoint answers 404', async () => {
  const { app } = createMock()
  const res = await app.request('/__admin/webhooks/ep_nope/test', post({}))
  expect(res.status).toBe(404)
})

test('the delivery log refuses an unknown status filter with 400', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/webhooks/deliveries?status=sometimes')
  expect(res.status).toBe(400)
  expect(JSON.stringify(await read(res))).toContain(
    'an outcome (delivered, retrying, failed, dropped)'
  )
})

test('an endpoint with 200,000 event types answers 400 naming the bound, not each item', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const events = Array.from({ length: 200_000 }, (_, i) => `bad-${i}`)
  const res = await app.request('/__admin/webhooks', post({ url: URL_A, events }))
  expect(res.status).toBe(400)
  expect((await read(res)).message).toEqual(['events: Too big: expected array to have <=32 items'])
})

test('a secret nested 100,000 levels deep answers 400, not a crash', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const nested = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)
  const res = await app.request('/__admin/webhooks', post(`{"url":"${URL_A}","secret":${nested}}`))
  expect(res.status).toBe(400)
  expect((await read(res)).message).toEqual([
    'secret: Invalid input: expected string, received object',
  ])
})
