import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { captureCommand } from '../src/capture/index.js'
import { createClient } from '../src/capture/client.js'
import { captureIo, closedTarget } from './replay-helpers.js'
import {
  buildSourceState,
  outFile,
  captureFrom,
  runCapture,
  SOURCE_KEY,
  startTestMock,
} from './capture-helpers.js'

/** A server that answers every request with the given status, headers and text. */
async function plainServer(status: number, text: string, type = 'text/html'): Promise<string> {
  const server = createServer((_req, res) =>
    res.writeHead(status, { 'content-type': type }).end(text)
  )
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  onTestFinished(() => new Promise<void>((done) => server.close(() => done())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

test('a capture through a chaos rule answering 429 with Retry-After waits as asked, retries and writes the file', async () => {
  const source = await startTestMock({ scenario: 'empty', apiGeneration: '2026-08' })
  await buildSourceState(source, '2026-08')
  await source.admin.addRule({
    match: { method: 'GET', path: '/v1/workflows' },
    fault: { status: 429, headers: { 'Retry-After': '2' } },
    times: 1,
  })
  const file = await outFile('limited.yaml')
  const waits: number[] = []
  const { io, out } = captureIo()
  const code = await captureCommand(['--from', source.url, '--key', SOURCE_KEY, '--out', file], {
    ...io,
    env: {},
    sleep: async (ms) => void waits.push(ms),
  })
  expect(code).toBe(0)
  expect(waits).toEqual([2000])
  expect(out.stderr).toContain(
    'rate limited on GET /v1/workflows?page=0&limit=100: waiting 2 s as Retry-After asks (retry 1)'
  )
  expect(await readFile(file, 'utf8')).toContain('workflowId: order-shipped')
})

test('a rate limit that does not end stops the capture with exit 1, a clear message and no file', async () => {
  const source = await startTestMock({ scenario: 'empty', apiGeneration: '2026-08' })
  await source.admin.addRule({
    match: { method: 'GET', path: '/v1/notification-groups' },
    fault: { status: 429, headers: { 'Retry-After': '1' } },
  })
  const file = await outFile('never.yaml')
  const result = await captureFrom(source.url, file)
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(
    'kept answering 429 to GET /v1/notification-groups (6 tries): the rate limit did not end'
  )
  expect(result.stderr).toContain('Nothing was written.')
  expect(existsSync(file)).toBe(false)
})

test('a server that refuses the key (401) ends the capture with exit 1, naming the key only in part', async () => {
  const source = await startTestMock({ scenario: 'default', apiGeneration: '2026-08' })
  const file = await outFile('refused.yaml')
  const result = await runCapture(['--from', source.url, '--key', 'invalid-key', '--out', file])
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(
    `${source.url} refused the key inva…ey (401 API Key not found): give the environment's secret key with --key or NOVU_SECRET_KEY`
  )
  expect(result.stderr).not.toContain('invalid-key')
  expect(existsSync(file)).toBe(false)
})

test('an address nothing answers on ends the capture with exit 1 and says to check --from', async () => {
  const target = await closedTarget()
  const result = await captureFrom(target, await outFile('x.yaml'))
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(
    /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): check --from/
  )
})

test('a URL that is no Novu API base (404) ends the capture with exit 1 and says what --from should be', async () => {
  const source = await startTestMock({ scenario: 'empty' })
  const result = await captureFrom(`${source.url}/api`, await outFile('x.yaml'))
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(
    "answers 404 to GET /v1/notification-groups: is --from the Novu API's base URL"
  )
})

test('an answer that is not JSON ends the capture with exit 1 and says it is not understood', async () => {
  const target = await plainServer(200, '<html>Welcome</html>')
  const result = await captureFrom(target, await outFile('x.yaml'))
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(
    'answered GET /v1/notification-groups with 200 and no JSON ("<html>Welcome</html>"): is --from a Novu API?'
  )
})

test('JSON of another shape ends the capture with exit 1, naming the route', async () => {
  const target = await plainServer(200, '{"groups":[]}', 'application/json')
  const result = await captureFrom(target, await outFile('x.yaml'))
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(
    'the answer to GET /v1/notification-groups is not a list of notification groups'
  )
})

test.each([
  [[], '--out FILE is required'],
  [['--out', 'x.txt'], '--out must end in .yaml, .yml or .json'],
  [['--out', 'x.yaml'], "give the environment's secret key: --key KEY, or NOVU_SECRET_KEY"],
  [['--out', 'x.yaml', '--key', 'k', '--from', 'ftp://x'], '--from must be an http(s) URL'],
  [
    ['--out', 'x.yaml', '--key', 'k', '--subscribers', 'many'],
    '--subscribers takes a whole number',
  ],
  [
    ['--out', 'x.yaml', '--key', 'k', '--from', 'https://me:pw@api.novu.co'],
    'no user, password or query',
  ],
  [
    ['--out', 'x.yaml', '--key', 'k', '--subscribers', '2', '--no-subscribers'],
    'exclude each other',
  ],
  [['--out', 'x.yaml', '--key', 'k', '--api-generation', '2025'], '--api-generation takes'],
  [['--out', 'x.yaml', '--kye', 'k'], 'unknown option --kye; did you mean --key?'],
])('usage error %j exits 2 with its message', async (argv, message) => {
  const result = await runCapture(argv)
  expect(result.code).toBe(2)
  expect(result.stderr).toContain(message)
})

test('the key comes from NOVU_SECRET_KEY when --key is not given', async () => {
  const source = await startTestMock({ scenario: 'empty' })
  const file = await outFile('env-key.yaml')
  const result = await runCapture(['--from', source.url, '--out', file], {
    NOVU_SECRET_KEY: SOURCE_KEY,
  })
  expect(result.code).toBe(0)
  const journal = await source.admin.requests({ path: '/v1/notification-groups' })
  expect(journal[0]?.apiKey).toMatch(/^sk_t…/)
})

test('--api-generation overrides the detected generation', async () => {
  const source = await startTestMock({ scenario: 'empty', apiGeneration: '2026-08' })
  const file = await outFile('forced.yaml')
  const result = await captureFrom(source.url, file, '--api-generation', '2024-10')
  expect(result.code).toBe(0)
  expect(await readFile(file, 'utf8')).toContain('apiGeneration: 2024-10')
  const v2 = await source.admin.requests({ path: '/v2/workflows' })
  expect(v2).toEqual([])
})

test('--help prints the capture usage and exits 0', async () => {
  const result = await runCapture(['--help'])
  expect(result.code).toBe(0)
  expect(result.stdout).toContain('Usage: novu-mock capture --out FILE [options]')
})

test('an answer larger than the capture reads is refused, not held in memory', async () => {
  const target = await plainServer(
    200,
    `{"data":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    'application/json'
  )
  const client = createClient({ baseUrl: target, apiKey: SOURCE_KEY, maxAnswerBytes: 1024 * 1024 })
  await expect(client.get('/v1/notification-groups')).rejects.toThrow(
    'answered GET /v1/notification-groups with more than 1 MB: is --from a Novu API?'
  )
})

test('a Retry-After longer than the capture waits ends it at once with the wait named', async () => {
  const source = await startTestMock({ scenario: 'empty' })
  await source.admin.addRule({
    match: { method: 'GET', path: '/v1/notification-groups' },
    fault: { status: 429, headers: { 'Retry-After': '3600' } },
  })
  const result = await captureFrom(source.url, await outFile('x.yaml'))
  expect(result.code).toBe(1)
  expect(result.stderr).toContain('(1 tries, Retry-After 3600 s): the rate limit did not end')
})
