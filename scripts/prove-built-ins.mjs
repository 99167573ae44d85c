// Writes fixtures/proven/: each built-in scenario and fixture as its check makes it (defaults
// filled in), with the SHA-256 of the text it was made from, so that a start on a built-in
// scenario need not build the scenario schemas (src/scenarios/proven.ts). Run it after
// `npm run build` whenever a file in scenarios/ or fixtures/ changes: until then the changed
// file is checked at every load, and test/proven-built-ins.test.ts says it is stale.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkScenarioText } from '../dist/scenarios/scenario-file.js'
import { checkFixtureText } from '../dist/scenarios/loader.js'
import { provenPath, sha256 } from '../dist/scenarios/proven.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const checks = {
  scenarios: (file, text) => checkScenarioText(file, text, 'json'),
  fixtures: (_file, text) => checkFixtureText(text),
}
rmSync(join(root, 'fixtures', 'proven'), { recursive: true, force: true })
for (const [dir, check] of Object.entries(checks)) {
  for (const name of readdirSync(join(root, dir))
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = join(root, dir, name)
    const text = readFileSync(file, 'utf8')
    const path = provenPath(file)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify({ sha256: sha256(text), value: check(file, text) })}\n`)
    console.log(`${dir}/${name} → ${path.slice(root.length)}`)
  }
}
