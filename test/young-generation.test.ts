import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'

// The built modules, as the CLI runs them (npm test builds dist/ first).
const MODULE = new URL('../dist/young-generation.js', import.meta.url).href
const CLI = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
const run = promisify(execFile)

/**
 * A fresh process that keeps 60 MB of objects alive, a chunk a turn of the event loop (as a mock
 * storing what it is sent does), and prints what holdYoungGeneration() said and the semi-space
 * size at the end.
 */
const PILE_UP = (hold: boolean) => `
const { getHeapSpaceStatistics } = await import('node:v8')
const { holdYoungGeneration } = await import(${JSON.stringify(MODULE)})
const said = ${hold} ? holdYoungGeneration() : null
const kept = []
for (let turn = 0; turn < 160; turn++) {
  for (let i = 0; i < 5000; i++) kept.push({ turn, i, text: 'record ' + i })
  await new Promise((resolve) => setImmediate(resolve))
}
const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
console.log(JSON.stringify({ said, semiSpaceMb: space.space_size / 2 / 2 ** 20, kept: kept.length }))
`

async function pileUp(hold: boolean, nodeArgs: string[] = []) {
  const { stdout } = await run(process.execPath, [
    ...nodeArgs,
    '--input-type=module',
    '-e',
    PILE_UP(hold),
  ])
  return JSON.parse(stdout) as { said: Record<string, unknown> | null; semiSpaceMb: number }
}

const running: ReturnType<typeof spawn>[] = []
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** The CLI's debug line about the young generation, once it listens. */
async function cliSays(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--log-level', 'debug'], {
    env: { ...process.env, ...env },
  })
  running.push(child)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout.on('data', () => {})
  for (let i = 0; i < 200 && !/youngGeneration/.test(stderr); i++)
    await new Promise((r) => setTimeout(r, 25))
  child.kill('SIGTERM')
  await once(child, 'exit')
  const line = stderr.split('\n').find((l) => l.includes('youngGeneration'))
  if (!line) throw new Error(`the CLI said nothing of its young generation: ${stderr}`)
  return JSON.parse(line) as {
    level: string
    msg: string
    youngGeneration: Record<string, unknown>
  }
}

test('without the hold, the same survivors grow the young generation past 4 MB a semi-space', async () => {
  const { semiSpaceMb } = await pileUp(false)
  expect(semiSpaceMb).toBeGreaterThan(4)
})

test('held, the young generation stays at 4 MB a semi-space however much survives', async () => {
  const { said, semiSpaceMb } = await pileUp(true)
  expect(said).toMatchObject({ held: true, limitMb: 4 })
  expect(semiSpaceMb).toBeLessThanOrEqual(4)
})

test('a semi-space size on the command line is left as the user set it', async () => {
  const { said, semiSpaceMb } = await pileUp(true, ['--max-semi-space-size=16'])
  expect(said).toMatchObject({ held: false, reason: 'user flag' })
  expect(semiSpaceMb).toBeGreaterThan(4)
})

test('the CLI holds its young generation and says so at debug level', async () => {
  const said = await cliSays()
  expect(said.level).toBe('debug')
  expect(said.youngGeneration).toMatchObject({ held: true, limitMb: 4 })
  expect(said.msg).toContain('NODE_OPTIONS')
})

test('a semi-space flag in NODE_OPTIONS keeps the CLI from sizing the young generation', async () => {
  const said = await cliSays({ NODE_OPTIONS: '--max-semi-space-size=8' })
  expect(said.youngGeneration).toMatchObject({ held: false, reason: 'user flag' })
})
