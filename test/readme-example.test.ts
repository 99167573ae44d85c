import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { NPM_INSTALL_FLAGS, pack as packProject, ROOT, run, userEnv } from './install-helpers.js'

// The README's "Use in tests" example, copied into a new project as a user would: the package
// as `npm pack` builds it (from dist/, so `npm run build` first, as `npm test` does), installed
// with the README's own install command, then vitest and tsc run on the README's files.

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

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

/**
 * `npm pack` of this checkout as built (`npm test` builds first): its prepare script would
 * rebuild dist/ under the test files that import it (install.test.ts packs an unbuilt copy).
 */
const pack = (into: string) => packProject(ROOT, into, ['--ignore-scripts'])

test('the README shows the install command and all five files of the example', () => {
  expect([...exampleFiles().keys()]).toEqual([
    'vitest.config.ts',
    'tsconfig.json',
    'test/global-setup.ts',
    'test/order-shipped.test.ts',
    'test/faults-and-clock.test.ts',
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
  // prepare runs for a git or folder install and `npm pack`, never for a tarball or registry one.
  for (const hook of ['preinstall', 'install', 'postinstall'])
    expect(manifest.scripts, hook).not.toHaveProperty(hook)
  expect(manifest.scripts.prepare).toBe('npm run build')
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

  // The README's commands, its tarball's path swapped for the one npm pack just made.
  const [install] = blocks('Use in tests').filter((b) => b.lang === 'sh')
  for (const line of (install?.text ?? '').trim().split('\n')) {
    const [command, ...args] = line.split(/\s+/)
    expect(command).toBe('npm')
    const swapped = args.map((arg) => (arg.endsWith('/novu-mock-0.1.0.tgz') ? tarball : arg))
    const extra = swapped[0] === 'install' ? NPM_INSTALL_FLAGS : []
    await run('npm', [...swapped, ...extra], { cwd: project })
  }
  for (const [path, text] of exampleFiles()) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
  const env = userEnv()

  // As `npx vitest run` and `npx tsc` run them, without npx's own notices on stderr.
  const bin = (name: string) => join(project, 'node_modules', '.bin', name)
  const vitest = await run(bin('vitest'), ['run'], { cwd: project, env }).catch(
    (error: { stdout: string; stderr: string; code: number }) => error
  )
  expect(`${vitest.stdout}${vitest.stderr}`).toMatch(/Tests\s+4 passed/)
  const tsc = await run(bin('tsc'), [], { cwd: project, env }).catch(
    (error: { stdout: string; stderr: string; code: number }) => error
  )
  expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe('')
  expect('code' in tsc ? tsc.code : 0).toBe(0)
}, 240_000)
