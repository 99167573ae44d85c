import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  newProject,
  NPM_INSTALL_FLAGS,
  pack,
  run,
  startCli,
  unbuiltCopy,
  userEnv,
} from './install-helpers.js'

// The two ways the README gives to add the mock to a project, each into a new folder: the
// tarball `npm pack` makes from a fresh clone (its prepare script builds dist/ first), and a git
// install (npm clones, installs the dev dependencies and runs prepare). Each then runs the
// installed CLI and startMock(). The registry serves the dependencies.

const INSTALL_TIMEOUT = 300_000
let dir: string
let tarball: string
let packed: string[]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'novu-mock-install-'))
  const copy = await unbuiltCopy(join(dir, 'clone'))
  expect(existsSync(join(copy, 'dist'))).toBe(false)
  ;({ tarball, files: packed } = await pack(copy, dir))
}, INSTALL_TIMEOUT)
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000)

/** startMock() imported by name from the project, one request through it. */
async function startMockIn(project: string): Promise<string> {
  const script = [
    "import { startMock } from 'novu-mock'",
    "const mock = await startMock({ port: 0, logLevel: 'silent', scenario: 'empty' })",
    "const res = await fetch(`${mock.url}/v1/topics`, { headers: { Authorization: 'ApiKey k' } })",
    'const body = await res.json()',
    'console.log(res.status, body.totalCount)',
    'await mock.close()',
  ].join('\n')
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
    env: userEnv(),
  })
  return stdout.trim()
}

/** The installed CLI on a free port: its health, then SIGTERM; the health and the exit code. */
async function cliIn(project: string): Promise<{ status: unknown; code: number | null }> {
  const cli = startCli(project)
  const { url } = await cli.listening
  const health = (await (await fetch(`${url}/__admin/health`)).json()) as { status: unknown }
  return { status: health.status, code: await cli.stop() }
}

test('npm pack from a clone without dist/ builds dist/ first and ships it', () => {
  expect(packed).toContain('dist/novu-mock.mjs')
  expect(packed).toContain('dist/index.js')
  expect(packed).toContain('dist/index.d.ts')
  // What a start on a built-in scenario reads instead of checking it (src/scenarios/proven.ts).
  expect(packed).toContain('fixtures/proven/scenarios/default.json')
})

test(
  'the packed tarball installs into a new project, whose CLI and startMock() run',
  async () => {
    const project = newProject(dir, 'from-tarball')
    await run('npm', ['install', '--save-dev', tarball, ...NPM_INSTALL_FLAGS], { cwd: project })
    expect(await cliIn(project)).toEqual({ status: 'ok', code: 0 })
    expect(await startMockIn(project)).toBe('200 0')
  },
  INSTALL_TIMEOUT
)

test(
  'a git install (git+file://) builds the package, whose CLI and startMock() run',
  async () => {
    const repo = await unbuiltCopy(join(dir, 'repo'), false)
    const git = (...args: string[]) => run('git', args, { cwd: repo })
    await git('init', '-q')
    await git('add', '-A')
    await git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'snapshot')
    const project = newProject(dir, 'from-git')
    await run('npm', ['install', '--save-dev', `git+file://${repo}`, ...NPM_INSTALL_FLAGS], {
      cwd: project,
    })
    expect(existsSync(join(project, 'node_modules', 'novu-mock', 'dist', 'novu-mock.mjs'))).toBe(
      true
    )
    expect(await cliIn(project)).toEqual({ status: 'ok', code: 0 })
    expect(await startMockIn(project)).toBe('200 0')
  },
  INSTALL_TIMEOUT
)
