import { execFile } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'

// The README's "Use with @novu/api" example, run as written against a freshly started mock: only
// the port changes. The file sits in the project so that `@novu/api` resolves from node_modules.

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const run = promisify(execFile)
let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

function example(): string {
  const section = README.split('## Use with @novu/api\n')[1]?.split('\n## ')[0] ?? ''
  return /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
}

test('the "Use with @novu/api" example prints what its comments say', async () => {
  const code = example()
  expect(code).toContain("from '@novu/api'")
  const file = new URL(`./.readme-novu-api-${process.pid}.mjs`, import.meta.url)
  writeFileSync(file, code.replace('http://127.0.0.1:4000', mock.url))
  try {
    const { stdout } = await run(process.execPath, [file.pathname], { timeout: 30_000 })
    const promised = [...code.matchAll(/\/\/ → (.*?)(?: \(.*\))?$/gm)].map((m) => m[1])
    expect(stdout.trim().split('\n')).toEqual(promised)
  } finally {
    rmSync(file, { force: true })
  }
})
