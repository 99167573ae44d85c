import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'

// The built CLI, as users run it (npm test builds dist/ first).
const CLI = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
const running: ChildProcessWithoutNullStreams[] = []

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, out: () => stdout, err: () => stderr }
}

async function started(args: string[], env: Record<string, string> = {}) {
  const proc = run(['--port', '0', ...args], env)
  for (let i = 0; i < 200 && !/listening on (http:\/\/\S+)/.test(proc.out()); i++)
    await new Promise((r) => setTimeout(r, 25))
  const url = /listening on (http:\/\/\S+)/.exec(proc.out())?.[1]
  if (!url) throw new Error(`the CLI did not start: ${proc.err()}`)
  return { ...proc, url }
}

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

test('--help lists every option with its environment variable', async () => {
  const { child, out } = run(['--help'])
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  for (const word of [
    '--port',
    'PORT',
    '--host',
    '--seed',
    '--scenario',
    '--scenarios-dir',
    '--latency',
    '--journal-size',
    '--admin-token',
    '--log-level',
    'replay',
  ])
    expect(out()).toContain(word)
})

test('--version prints the package version', async () => {
  const { child, out } = run(['--version'])
  await once(child, 'exit')
  expect(out().trim()).toMatch(/^\d+\.\d+\.\d+$/)
})

test('an unknown flag exits 2 with a hint', async () => {
  const { child, err } = run(['--nope'])
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain('--help')
})

test('a port that is not a number exits 2 naming the flag', async () => {
  const { child, err } = run(['--port', 'abc'])
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain('--port must be a number')
})

test('--port 0 listens on a free loopback port and prints the URL, the routes and the admin prefix', async () => {
  const { url, out } = await started([])
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(out()).toContain('GET    /v1/topics')
  expect(out()).toContain('/__admin')
  const res = await fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey cli' } })
  expect(res.status).toBe(200)
})

test('environment variables configure the mock when no flag is given', async () => {
  const { url } = await started([], { SCENARIO: 'empty', SEED: '7' })
  const health = await (await fetch(`${url}/__admin/health`)).json()
  expect(health).toMatchObject({ scenario: 'empty' })
})

test('SIGTERM lets an in-flight request finish, then exits 0', async () => {
  const { url, child } = await started(['--latency', '300'])
  const inFlight = fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey cli' } })
  await new Promise((r) => setTimeout(r, 100))
  child.kill('SIGTERM')
  const res = await inFlight
  expect(res.status).toBe(200)
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
})

test('after SIGTERM new connections are refused', async () => {
  const { url, child } = await started(['--latency', '300'])
  const inFlight = fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey cli' } })
  await new Promise((r) => setTimeout(r, 50))
  child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 50))
  await expect(
    fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey cli', Connection: 'close' } })
  ).rejects.toThrow()
  await inFlight
})

test('debug logs one JSON line per request without the full API key', async () => {
  const { url, err } = await started(['--log-level', 'debug'])
  await fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey very-secret-key-123' } })
  await new Promise((r) => setTimeout(r, 50))
  const line = err()
    .split('\n')
    .find((l) => l.includes('"request"'))
  expect(JSON.parse(line ?? '{}')).toMatchObject({
    level: 'debug',
    method: 'GET',
    path: '/v1/topics',
    status: 200,
  })
  expect(err()).not.toContain('very-secret-key-123')
})

test('the default log level prints no request lines', async () => {
  const { url, err } = await started([])
  await fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey quiet' } })
  await new Promise((r) => setTimeout(r, 50))
  expect(err()).toBe('')
})
