import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { PACKAGE_ROOT } from '../src/package-root.js'
import { provenPath, sha256 } from '../src/scenarios/proven.js'
import { checkScenarioText, loadScenarioText } from '../src/scenarios/scenario-file.js'
import { checkFixtureText } from '../src/scenarios/loader.js'

// A start on a built-in scenario reads its proven form (fixtures/proven/) instead of checking the
// file: these keep that form what the check makes of the file's current text.
const STALE = 'stale: run `npm run build && node scripts/prove-built-ins.mjs`'

const packageFiles = (dir: string) =>
  readdirSync(join(PACKAGE_ROOT, dir))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(PACKAGE_ROOT, dir, name))

const provenOf = (file: string) =>
  JSON.parse(readFileSync(provenPath(file) as string, 'utf8')) as { sha256: string; value: unknown }

/** Each package file, with the check its proven form must equal. */
const checks: [string, (text: string) => unknown][] = [
  ...packageFiles('scenarios').map((file): [string, (text: string) => unknown] => [
    file,
    (text) => checkScenarioText(file, text, 'json'),
  ]),
  ...packageFiles('fixtures').map((file): [string, (text: string) => unknown] => [
    file,
    checkFixtureText,
  ]),
]

test.each(checks)(
  'the proven form of %s is what checking its current text makes',
  (file, check) => {
    const text = readFileSync(file, 'utf8')
    const proven = provenOf(file)
    expect(proven.sha256, STALE).toBe(sha256(text))
    expect(proven.value, STALE).toStrictEqual(check(text))
  }
)

test('a built-in scenario file whose text is not the proven one is checked as any other', () => {
  const file = join(PACKAGE_ROOT, 'scenarios', 'default.json')
  const text = JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), seed: [] })
  expect(() => loadScenarioText(file, text, 'json')).toThrow(/seed/)
})

test('the default scenario read from its proven form answers as the same file checked does', async () => {
  // A user folder's default.json replaces the built-in one, and a user's file is always checked.
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-proven-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  copyFileSync(join(PACKAGE_ROOT, 'scenarios', 'default.json'), join(dir, 'default.json'))
  const proven = createMock({ seed: 5, logLevel: 'silent' })
  const checked = createMock({ seed: 5, logLevel: 'silent', scenariosDir: dir })
  for (const path of ['/v1/topics', '/v1/workflows', '/v1/subscribers', '/v1/integrations']) {
    const answer = async (mock: typeof proven) => {
      const res = await mock.app.request(path, { headers: { Authorization: 'ApiKey proven' } })
      return [res.status, await res.text()]
    }
    const expected = await answer(checked)
    expect(expected[0]).toBe(200)
    expect(await answer(proven)).toEqual(expected)
  }
})
