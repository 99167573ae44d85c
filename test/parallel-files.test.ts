import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'
import { startMock } from '../src/server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))

test('two test files running at once against one mock never see each other’s data, rules or counts', async () => {
  const mock = await startMock({ port: 0, logLevel: 'silent' })
  onTestFinished(() => mock.close())
  // test/parallel/*.check.ts: two files, two workers, meeting at barriers on every round.
  const child = spawn(
    process.execPath,
    [VITEST, 'run', '--config', 'test/parallel/vitest.config.ts', '--reporter', 'verbose'],
    { cwd: ROOT, env: { ...process.env, NOVU_MOCK_URL: mock.url, NO_COLOR: '1' } }
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const [code] = await once(child, 'exit')

  expect(output).toMatch(/Test Files\s+2 passed/)
  expect(output).toMatch(/Tests\s+10 passed/)
  expect(code, output).toBe(0)
}, 90_000)
