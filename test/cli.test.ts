import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, onTestFinished, test } from 'vitest'

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

test('--help lists the replay options too', async () => {
  const { child, out } = run(['--help'])
  await once(child, 'exit')
  for (const flag of [
    '--target URL',
    '--api-key KEY',
    '--admin-token TOKEN',
    '--skip-admin',
    '--report json',
    '--report-file FILE',
  ])
    expect(out()).toContain(flag)
})

test('an unknown flag close to a known one gets a "did you mean"', async () => {
  const { child, err } = run(['--prot', '4000'])
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain('unknown option --prot; did you mean --port?')
})

test('a port from the environment that is not a number is reported as PORT', async () => {
  const { child, err } = run([], { PORT: 'abc' })
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain('PORT must be a number, got "abc"')
  expect(err()).not.toContain('--port')
})

test('a bad value from the environment is reported by its variable', async () => {
  const { child, err } = run([], { LOG_LEVEL: 'loud' })
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toMatch(/^novu-mock: LOG_LEVEL: /)
})

test('NOVU_MOCK_CACHES=off:NAME turns that cache off and leaves the others answering', async () => {
  const { url } = await started([], { NOVU_MOCK_CACHES: 'off:path segments, list answers' })
  const headers = { authorization: 'ApiKey cli-caches' }
  for (let i = 0; i < 3; i++)
    expect((await fetch(`${url}/v1/topics?page=0&pageSize=10`, { headers })).status).toBe(200)
  const { enabled, caches } = (await (await fetch(`${url}/__admin/caches`)).json()) as {
    enabled: boolean
    caches: { name: string; hits: number; entries: number }[]
  }
  const off = caches.filter((c) => c.name === 'path segments' || c.name === 'list answers')
  expect(enabled).toBe(true)
  expect(off).toMatchObject([
    { hits: 0, entries: 0 },
    { hits: 0, entries: 0 },
  ])
  expect(caches.some((c) => c.hits > 0)).toBe(true)
})

test('a NOVU_MOCK_CACHES that is neither on, off nor off:NAME exits 2 naming the variable', async () => {
  const { child, err } = run([], { NOVU_MOCK_CACHES: 'sometimes' })
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain("NOVU_MOCK_CACHES: caches must be 'on', 'off' or 'off:<name>,<name>'")
})

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

test('--log-level silent serves without printing the banner', async () => {
  const port = await freePort()
  const { out, err } = run(['--port', String(port), '--log-level', 'silent'])
  let status = 0
  for (let i = 0; i < 200 && status !== 200; i++) {
    status = await fetch(`http://127.0.0.1:${port}/__admin/health`).then(
      (r) => r.status,
      () => 0
    )
    if (status !== 200) await new Promise((r) => setTimeout(r, 25))
  }
  expect(status).toBe(200)
  expect(out()).toBe('')
  expect(err()).toBe('')
})

test('--log-level warn prints only the line that says where it listens', async () => {
  const { out } = await started(['--log-level', 'warn'])
  expect(out()).toMatch(/^novu-mock \S+ listening on http:\/\/127\.0\.0\.1:\d+\n$/)
})

test('a bad scenario file at start exits 2 naming the file, each field path, line and column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-cli-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'broken.yaml'),
    'seed: 7\ndata:\n  topics:\n    - key: ""\nclock: { mode: sometimes }\n'
  )
  const { child, err } = run(['--scenario', join(dir, 'broken.yaml')])
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain(
    `novu-mock: cannot start: the scenario file ${join(dir, 'broken.yaml')} is not valid:`
  )
  expect(err()).toContain('  data.topics.0.key (line 4, column 12): ')
  expect(err()).toContain('  clock.mode (line 5, column 16): ')
})

test('a missing --scenarios-dir exits 2 naming the folder', async () => {
  const missing = join(tmpdir(), 'novu-mock-cli-missing-folder')
  const { child, err } = run(['--scenarios-dir', missing])
  const [code] = await once(child, 'exit')
  expect(code).toBe(2)
  expect(err()).toContain(
    `the scenarios folder ${missing} (--scenarios-dir, SCENARIOS_DIR) does not exist`
  )
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

test('every admin URL the banner prints answers 200', async () => {
  const { out } = await started([])
  const line = out()
    .split('\n')
    .find((l) => l.startsWith('Admin API: '))
  const urls = line?.match(/http:\/\/[^\s,()]+/g) ?? []
  expect(urls.length).toBeGreaterThanOrEqual(5)
  for (const url of urls) expect((await fetch(url)).status, url).toBe(200)
})

test('the dashboard URL the banner prints answers its page', async () => {
  const { out } = await started([])
  const line = out()
    .split('\n')
    .find((l) => l.startsWith('Dashboard: '))
  const url = line?.match(/http:\/\/\S+/)?.[0] ?? ''
  expect(url).toMatch(/\/__admin\/ui$/)
  const res = await fetch(url)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
})

test('on every interface the banner gives the loopback URL to reach it by', async () => {
  const { url, out } = await started(['--host', '0.0.0.0'])
  const port = new URL(url).port
  expect(out()).toContain(`listening on ${url} (from this machine: http://127.0.0.1:${port})`)
  expect(out()).toContain(`Admin API: http://127.0.0.1:${port}/__admin/health`)
})

test('a busy port exits 1 naming the port and suggesting --port 0', async () => {
  const busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => busy.close(() => resolve())))
  const port = (busy.address() as { port: number }).port
  const { child, err } = run(['--port', String(port)])
  const [code] = await once(child, 'exit')
  expect(code).toBe(1)
  expect(err()).toContain(`port ${port} on 127.0.0.1 is already in use`)
  expect(err()).toContain('--port 0')
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
