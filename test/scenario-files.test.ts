import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { createMock } from '../src/mock.js'

/** A fresh folder holding the given files, removed after the test. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-scenarios-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

/** The message createMock throws, or a failure when it does not throw. */
function startError(options: Parameters<typeof createMock>[0]): string {
  try {
    createMock(options)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the mock started')
}

const BROKEN_YAML = [
  'seed: 7',
  'data:',
  '  topics:',
  '    - key: ""',
  'clock: { mode: sometimes }',
  'colour: blue',
  '',
].join('\n')

test('a scenario is named by its file name, and name: may be left out', async () => {
  const dir = folder({ 'checkout.yaml': 'fixture: default\nseed: 7\n' })
  const { state } = createMock({ scenariosDir: dir, scenario: 'checkout' })
  expect(state.scenario.name).toBe('checkout')
})

test('a name: that differs from the file name stops the start, naming both', () => {
  const dir = folder({ 'checkout.yaml': 'name: payments\n' })
  const message = startError({ scenariosDir: dir, scenario: 'checkout' })
  expect(message).toContain('name (line 1, column 7): "payments" is not the file name "checkout"')
})

test('a bad scenario file at start-up names the file, every field path, line and column', () => {
  const dir = folder({ 'broken.yaml': BROKEN_YAML })
  const message = startError({ scenariosDir: dir, scenario: 'broken' })
  expect(message).toContain(`the scenarios folder ${dir} holds files that are not valid scenarios`)
  expect(message).toContain('broken.yaml: data.topics.0.key (line 4, column 12):')
  expect(message).toContain('clock.mode (line 5, column 16):')
  expect(message).toContain('colour (line 6, column 1): unknown field "colour"')
})

test('a bad JSON scenario file names its field paths with line and column too', () => {
  const dir = folder({ 'broken.json': '{\n  "seed": 7,\n  "clock": { "mode": "sometimes" }\n}\n' })
  const message = startError({ scenariosDir: dir, scenario: 'broken' })
  expect(message).toContain('clock.mode (line 3, column 22):')
})

test('a bad scenario file given by path is named by its path', () => {
  const dir = folder({ 'broken.yaml': BROKEN_YAML })
  const message = startError({ scenario: join(dir, 'broken.yaml') })
  expect(message).toContain(`the scenario file ${join(dir, 'broken.yaml')} is not valid`)
  expect(message).toContain('data.topics.0.key (line 4, column 12):')
})

test('a missing --scenarios-dir stops the start, naming the folder', () => {
  const missing = join(tmpdir(), 'novu-mock-no-such-folder')
  expect(startError({ scenariosDir: missing })).toBe(
    `the scenarios folder ${missing} (--scenarios-dir, SCENARIOS_DIR) does not exist`
  )
})

test('a --scenarios-dir that is a file stops the start', () => {
  const dir = folder({ 'a.json': '{}' })
  expect(startError({ scenariosDir: join(dir, 'a.json') })).toMatch(/is not a folder$/)
})

test('a --scenarios-dir holding a JSON file that is not a scenario stops the start, naming it', () => {
  const dir = folder({ 'package.json': '{ "name": "my-app", "version": "1.0.0" }' })
  const message = startError({ scenariosDir: dir })
  expect(message).toContain('package.json: name')
  expect(message).toContain('package.json: version (line 1, column 21): unknown field "version"')
})

test('only .json, .yaml and .yml files of --scenarios-dir are read', async () => {
  const dir = folder({
    'README.md': '# not a scenario',
    'notes.txt': 'nor this',
    'a.yml': 'description: from a .yml file\n',
  })
  const { admin } = createMock({ scenariosDir: dir })
  const user = (await admin.scenarios()).filter((s) => !['default', 'empty'].includes(s.name))
  expect(user.map((s) => s.name)).toEqual(expect.arrayContaining(['a']))
  expect(user.map((s) => s.name)).not.toContain('README')
  expect(user.map((s) => s.name)).not.toContain('notes')
})

test('the admin route reports a file broken after the start with paths, line and column', async () => {
  const dir = folder({ 'later.yaml': 'seed: 1\n' })
  const { app } = createMock({ scenariosDir: dir })
  writeFileSync(join(dir, 'later.yaml'), BROKEN_YAML)

  const res = await app.request('/__admin/scenario', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'later' }),
  })

  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(JSON.stringify(await res.json())).toContain('data.topics.0.key (line 4, column 12):')
})

test('a sub-folder of --scenarios-dir is not a scenario', () => {
  const dir = folder({})
  mkdirSync(join(dir, 'old.json'))
  expect(() => createMock({ scenariosDir: dir })).not.toThrow()
})
