import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, onTestFinished, test } from 'vitest'

// The README's "Use in tests" example, copied into a new project as a user would: the package
// as `npm pack` builds it (from dist/, so `npm run build` first, as `npm test` does), installed
// with the README's own install command, then vitest and tsc run on the README's files.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const run = promisify(execFile)

interface Block {
  lang: string
  text: string
}

/** The fenced blocks of a README section, in order. */
function blocks(heading: string): Block[] {
  const section = README.split(`## ${heading}\n`)[1]?.split('\n## ')[0] ?? ''
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] ?? '',
    text: m[2] ?? '',
  }))
}

/** The files the section shows: every block whose first line is `// <path>`. */
function exampleFiles(): Map<string, string> {
  const files = new Map<string, string>()
  for (const { text } of blocks('Use in tests')) {
    const path = /^\/\/ (\S+)\n/.exec(text)?.[1]
    if (path) files.set(path, text)
  }
  return files
}

/** `npm pack` of this project: the tarball's path, and the paths it holds. */
async function pack(into: string): Promise<{ tarball: string; files: string[] }> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', into], {
    cwd: ROOT,
  })
  const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }]
  return { tarball: join(into, info.filename), files: info.files.map((f) => f.path) }
}

test('the README shows the install command and all four files of the example', () => {
  expect([...exampleFiles().keys()]).toEqual([
    'vitest.config.ts',
    'tsconfig.json',
    'test/global-setup.ts',
    'test/welcome.test.ts',
  ])
  expect(blocks('Use in tests').filter((b) => b.lang === 'sh')).toHaveLength(1)
})

test('npm pack ships what the README promises and no script that runs on install', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-pack-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const { files } = await pack(dir)

  const top = [...new Set(files.map((f) => f.split('/')[0]))].sort()
  expect(top).toEqual(['LICENSE', 'README.md', 'dist', 'fixtures', 'package.json', 'scenarios'])
  expect(files).toContain('dist/novu-mock.mjs')
  expect(files).toContain('dist/index.d.ts')
  expect(files).toContain('scenarios/scripts/onboarding.yaml')
  expect(files.filter((f) => /\.test\.|\.spec\./.test(f))).toEqual([])
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
    license: string
  }
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
    expect(manifest.scripts, hook).not.toHaveProperty(hook)
  expect(manifest.license).toBe('MIT')
  expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/)
})

test('the README example passes when copied into a new project with the packed package', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-example-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const { tarball } = await pack(dir)
  const project = join(dir, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), '{ "name": "example", "private": true }\n')

  // The README's commands, the package swapped for the tarball npm pack just made.
  const [install] = blocks('Use in tests').filter((b) => b.lang === 'sh')
  for (const line of (install?.text ?? '').trim().split('\n')) {
    const [command, ...args] = line.split(/\s+/)
    expect(command).toBe('npm')
    const swapped = args.map((arg) => (arg === 'novu-mock' ? tarball : arg))
    const extra = swapped[0] === 'install' ? ['--no-audit', '--no-fund', '--prefer-offline'] : []
    await run('npm', [...swapped, ...extra], { cwd: project })
  }
  for (const [path, text] of exampleFiles()) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '1' }
  delete env.VITEST
  delete env.VITEST_POOL_ID
  delete env.VITEST_WORKER_ID
  delete env.NODE_OPTIONS

  // As `npx vitest run` and `npx tsc` run them, without npx's own notices on stderr.
  const bin = (name: string) => join(project, 'node_modules', '.bin', name)
  const vitest = await run(bin('vitest'), ['run'], { cwd: project, env }).catch(
    (error: { stdout: string; stderr: string; code: number }) => error
  )
  expect(`${vitest.stdout}${vitest.stderr}`).toMatch(/Tests\s+2 passed/)
  const tsc = await run(bin('tsc'), [], { cwd: project, env }).catch(
    (error: { stdout: string; stderr: string; code: number }) => error
  )
  expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe('')
  expect('code' in tsc ? tsc.code : 0).toBe(0)
}, 240_000)
