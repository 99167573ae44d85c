import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { replayCommand, ReplayReportSchema } from '../src/replay/index.js'
import { captureIo, startTestMock } from './replay-helpers.js'

const ONBOARDING = 'scenarios/scripts/onboarding.yaml'

async function scriptFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'replay-')), name)
  await writeFile(file, text)
  return file
}

test('exits 0 and prints one line per step, then the totals', async () => {
  const mock = await startTestMock()
  const { io, out } = captureIo()
  expect(await replayCommand([ONBOARDING, '--target', mock.url], io)).toBe(0)
  const lines = out.stdout.trimEnd().split('\n')
  expect(lines[0]).toMatch(
    /^✓ 1 GET \/v1\/notification-groups → 200 \(\d+ ms\) {2}# list the workflow groups$/
  )
  expect(lines).toHaveLength(10)
  expect(lines.at(-1)).toBe('9 passed, 0 failed')
})

test('exits 1 and names the difference when an expectation fails', async () => {
  const mock = await startTestMock()
  const file = await scriptFile(
    'fail.yaml',
    'name: fail\nsteps:\n  - request: { method: GET, path: /v1/topics }\n    expect: { status: 201 }\n'
  )
  const { io, out } = captureIo()
  expect(await replayCommand([file, '--target', mock.url, '--api-key', 'k'], io)).toBe(1)
  expect(out.stdout).toBe(
    '✗ 1 GET /v1/topics → 200: status: expected 201, got 200\n0 passed, 1 failed\n'
  )
})

test('prints a JSON report that matches the report schema with --report json', async () => {
  const mock = await startTestMock()
  const { io, out } = captureIo()
  await replayCommand(['replay', ONBOARDING, '--target', `${mock.url}/`, '--report', 'json'], io)
  const report = ReplayReportSchema.parse(JSON.parse(out.stdout))
  expect(report).toMatchObject({ name: 'onboarding', target: mock.url, passed: 9, failed: 0 })
})

test('writes the JSON report to --report-file and the lines to stdout', async () => {
  const mock = await startTestMock()
  const file = join(await mkdtemp(join(tmpdir(), 'replay-')), 'report.json')
  const { io, out } = captureIo()
  await replayCommand(
    [ONBOARDING, '--target', mock.url, '--report', 'json', '--report-file', file],
    io
  )
  expect(ReplayReportSchema.parse(JSON.parse(await readFile(file, 'utf8'))).passed).toBe(9)
  expect(out.stdout).toMatch(/9 passed, 0 failed\n$/)
})

test('exits 2 and lists every problem with its path for an invalid script', async () => {
  const file = await scriptFile(
    'bad.yaml',
    'name: bad\nsteps:\n  - request: { method: FETCH, path: /x }\n  - admin: { reboot: true }\n'
  )
  const { io, out } = captureIo()
  expect(await replayCommand([file, '--target', 'http://127.0.0.1:1'], io)).toBe(2)
  expect(out.stderr).toContain(`${file} is not a valid replay script:`)
  expect(out.stderr).toContain('  steps.0.request.method: Invalid option')
  expect(out.stderr).toContain('  steps.1.admin: Unrecognized key: "reboot"')
})

test('exits 2 for a script that is not YAML', async () => {
  const file = await scriptFile('broken.yaml', 'name: [unclosed\n')
  const { io, out } = captureIo()
  expect(await replayCommand([file, '--target', 'http://127.0.0.1:1'], io)).toBe(2)
  expect(out.stderr).toContain(`${file} is not valid YAML:`)
})

test.each([
  [[ONBOARDING], '--target URL is required'],
  [['--target', 'http://x'], 'give the script to run'],
  [[ONBOARDING, '--target', 'localhost:4000'], '--target must be an http(s) URL'],
  [[ONBOARDING, '--target', 'http://x', '--report', 'xml'], '--report takes "json" or "text"'],
  [[ONBOARDING, '--target', 'http://x', '--verbose'], 'unknown option --verbose'],
  [[ONBOARDING, '--taget', 'http://x'], 'unknown option --taget; did you mean --target?'],
])('exits 2 with a clear message for the usage %j', async (argv, message) => {
  const { io, out } = captureIo()
  expect(await replayCommand(argv, io)).toBe(2)
  expect(out.stderr).toContain(message)
})

test('prints the usage with --help and exits 0', async () => {
  const { io, out } = captureIo()
  expect(await replayCommand(['--help'], io)).toBe(0)
  expect(out.stdout).toMatch(/^Usage: novu-mock replay SCRIPT --target URL/)
})
