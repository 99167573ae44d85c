// The CLI hands back the memory a load made V8 grow (src/memory/give-back.ts): after a pause in
// requests (--idle-gc-ms), and 100 ms after a reset that dropped 16 MB or more; its debug log
// says how much. It holds V8's young generation at 4 MB a semi-space except under a write load
// (src/memory/young-generation.ts). The built CLI, as users run it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
/** The default scenario's notification group. */
const SEEDED_GROUP = '66fbb0a0c1f2e3d4a5b60001'
const GIVEN_BACK = 'memory given back to the system after a pause in requests'
const running: ChildProcessWithoutNullStreams[] = []

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function spawnCli(args: string[], env: Record<string, string> = {}) {
  const flags = ['--port', '0', '--log-level', 'debug', '--max-workflows', '0', ...args]
  const child = spawn(process.execPath, [CLI, ...flags], {
    env: { ...process.env, ...env },
  })
  running.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return { child, out: () => out, err: () => err }
}

async function started(args: string[], env: Record<string, string> = {}) {
  const cli = spawnCli(args, env)
  for (let i = 0; i < 400 && !/listening on (http:\/\/\S+)/.test(cli.out()); i++)
    await new Promise((r) => setTimeout(r, 25))
  const url = /listening on (http:\/\/\S+)/.exec(cli.out())?.[1]
  if (!url) throw new Error(`the CLI did not start: ${cli.err()}`)
  /** The log lines that hold `fragment`, parsed. */
  const logged = <T>(fragment: string) =>
    cli
      .err()
      .split('\n')
      .filter((line) => line.includes(fragment))
      .map((line) => JSON.parse(line) as T & { level: string; msg: string })
  const givenBack = () => logged<{ rssBeforeMb: number; rssAfterMb: number }>(GIVEN_BACK)
  return { url, givenBack, logged }
}

/** Workflows created one after another: records the young generation keeps through scavenges. */
async function createWorkflows(url: string, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/v1/workflows`, {
      method: 'POST',
      headers: { Authorization: 'ApiKey idle-gc', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Idle ${i}`,
        notificationGroupId: SEEDED_GROUP,
        steps: [{ template: { type: 'in_app', content: `Hello {{name}} ${'x'.repeat(2000)}` } }],
      }),
    })
    await res.arrayBuffer()
    expect(res.status).toBe(201)
  }
}

async function waitFor<T>(read: () => T[], ms: number): Promise<T[]> {
  for (let waited = 0; waited < ms && read().length === 0; waited += 50)
    await new Promise((r) => setTimeout(r, 50))
  return read()
}

/** A topic with an 18 MB name, imported into one key: 18 MB the memory budget counts. */
async function importBigTopic(url: string) {
  const res = await fetch(`${url}/__admin/state?apiKey=idle-gc`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ topics: [{ key: 'big', name: 'n'.repeat(18 * 1024 * 1024) }] }),
  })
  await res.arrayBuffer()
  expect(res.status).toBe(200)
}

const reset = async (url: string) =>
  (await fetch(`${url}/__admin/reset`, { method: 'POST' })).status

test('after a pause in requests the CLI gives back the memory a load grew, and logs how much', async () => {
  const mock = await started(['--idle-gc-ms', '300'])
  await createWorkflows(mock.url, 300)
  const lines = await waitFor(mock.givenBack, 10_000)
  expect(lines).toHaveLength(1)
  expect(lines[0]?.level).toBe('debug')
  expect(lines[0]?.rssAfterMb).toBeLessThan(lines[0]?.rssBeforeMb ?? 0)
})

test('a reset that drops 16 MB or more gives memory back at the first pause, without waiting out --idle-gc-ms', async () => {
  const mock = await started(['--idle-gc-ms', '600000'])
  await importBigTopic(mock.url)
  await new Promise((r) => setTimeout(r, 400))
  expect(mock.givenBack()).toEqual([])
  expect(await reset(mock.url)).toBe(200)
  const lines = await waitFor(mock.givenBack, 5_000)
  expect(lines).toHaveLength(1)
  expect(lines[0]?.rssAfterMb).toBeLessThan(lines[0]?.rssBeforeMb ?? 0)
})

test('a reset that drops little leaves the heap and its optimised code alone', async () => {
  const mock = await started(['--idle-gc-ms', '600000'])
  await createWorkflows(mock.url, 50)
  expect(await reset(mock.url)).toBe(200)
  await new Promise((r) => setTimeout(r, 1000))
  expect(mock.givenBack()).toEqual([])
})

test('--idle-gc-ms 0 leaves the memory as V8 holds it, pauses and resets alike', async () => {
  const mock = await started(['--idle-gc-ms', '0'])
  await importBigTopic(mock.url)
  expect(await reset(mock.url)).toBe(200)
  await new Promise((r) => setTimeout(r, 1500))
  expect(mock.givenBack()).toEqual([])
})

test('IDLE_GC_MS must be a whole number of milliseconds: the CLI names the variable and exits 2', async () => {
  const cli = spawnCli([], { IDLE_GC_MS: '-5' })
  const [code] = await once(cli.child, 'exit')
  expect(code).toBe(2)
  expect(cli.err()).toMatch(/IDLE_GC_MS: Too small: expected number to be >=0/)
})

const HELD = "V8's young generation held at its size"
const UNDER_WRITES = "V8's young generation grows as V8 grows it, under a write load"

/** Reads, which allocate and so bring collections, until `read` finds a line (at most `ms`). */
async function readUntil<T>(url: string, read: () => T[], ms: number): Promise<T[]> {
  const until = Date.now() + ms
  while (read().length === 0 && Date.now() < until) {
    const res = await fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey idle-gc' } })
    await res.arrayBuffer()
  }
  return read()
}

/** Workflows created 50 at a time, a write load's pace, until `read` finds a line. */
async function writeUntil<T>(url: string, read: () => T[], ms: number): Promise<T[]> {
  const until = Date.now() + ms
  while (read().length === 0 && Date.now() < until)
    await Promise.all(Array.from({ length: 5 }, () => createWorkflows(url, 10)))
  return read()
}

test('the CLI holds V8 young generation once it has 4 MB a semi-space, and logs it at debug', async () => {
  const mock = await started([])
  const held = await readUntil(mock.url, () => mock.logged<{ semiSpaceMb: number }>(HELD), 10_000)
  expect(held).toHaveLength(1)
  expect(held[0]?.level).toBe('debug')
  expect(held[0]?.semiSpaceMb).toBeGreaterThanOrEqual(4)
})

test(
  'a write load lets V8 grow the young generation, and a second without writes holds it again',
  { timeout: 40_000 },
  async () => {
    const mock = await started([])
    expect(await readUntil(mock.url, () => mock.logged(HELD), 10_000)).toHaveLength(1)
    expect(await writeUntil(mock.url, () => mock.logged(UNDER_WRITES), 10_000)).toHaveLength(1)
    const heldAgain = await readUntil(mock.url, () => mock.logged(HELD).slice(1), 10_000)
    expect(heldAgain).toHaveLength(1)
  }
)

test('a young generation set in NODE_OPTIONS is left as set', async () => {
  const mock = await started([], { NODE_OPTIONS: '--max-semi-space-size=2' })
  expect(mock.logged("V8's young generation left as the command line set it")).toHaveLength(1)
  await createWorkflows(mock.url, 20)
  await readUntil(mock.url, () => [], 1000)
  expect(mock.logged(HELD)).toEqual([])
})

test('--idle-gc-ms 0 leaves the young generation to V8, as startMock() does', async () => {
  const mock = await started(['--idle-gc-ms', '0'])
  await readUntil(mock.url, () => [], 1000)
  expect(mock.logged("V8's young generation")).toEqual([])
})
