import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { VERSION } from '../src/admin/version.js'
import { helpText } from '../src/cli-options.js'
import { createMock } from '../src/mock.js'
import { startMock } from '../src/server.js'

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const BASE = 'http://127.0.0.1:4000'

interface Example {
  command: string
  status: number
  body?: string
}

/** The `curl` lines of a README section, each with the `# → STATUS BODY` line under it. */
function examples(heading = 'Try it'): Example[] {
  const section = README.split(`## ${heading}\n`)[1]?.split('\n## ')[0] ?? ''
  const lines = section.split('\n')
  const out: Example[] = []
  lines.forEach((line, i) => {
    const expected = /^# → (\d{3})(?: (.*))?$/.exec(lines[i + 1] ?? '')
    if (line.startsWith('curl ') && expected)
      out.push({ command: line, status: Number(expected[1]), body: expected[2] })
  })
  return out
}

/** The few curl options the README uses, turned into a fetch call. */
function toRequest(command: string, base: string) {
  const words = [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? ''
  )
  const headers: Record<string, string> = {}
  let method = 'GET'
  let body: string | undefined
  let url = ''
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? ''
    if (word === '-X') method = words[++i] ?? ''
    else if (word === '-H') {
      const [name, ...value] = (words[++i] ?? '').split(':')
      headers[name ?? ''] = value.join(':').trim()
    } else if (word === '-d') body = words[++i]
    else if (word.startsWith('http')) url = word.replace(BASE, base)
  }
  return { url, init: { method, headers, ...(body !== undefined ? { body } : {}) } }
}

/** `…` in the README stands for any text; the other pieces must appear in order. */
function matchesShape(actual: string, shape: string): boolean {
  let at = 0
  for (const piece of shape.split('…').filter(Boolean)) {
    const found = actual.indexOf(piece, at)
    if (found === -1) return false
    at = found + piece.length
  }
  return true
}

test('the README has curl examples for every Novu operation and every admin route', () => {
  const commands = examples().map((e) => e.command)
  for (const route of [
    '/v1/topics',
    '/v1/notification-groups/',
    '/v1/messages/transaction/',
    '/v1/workflows',
    '/status',
  ])
    expect(
      commands.some((c) => c.includes(route)),
      route
    ).toBe(true)
})

test.each(['Try it', 'Admin API', 'Test your notification flow'])(
  'every curl example of "%s" answers what the README says',
  async (heading) => {
    const mock = await startMock({ port: 0, logLevel: 'silent' })
    onTestFinished(() => mock.close())
    expect(examples(heading).length).toBeGreaterThan(10)
    for (const example of examples(heading)) {
      const { url, init } = toRequest(example.command, mock.url)
      const res = await fetch(url, init)
      const text = await res.text()
      expect.soft(res.status, example.command).toBe(example.status)
      if (example.body)
        expect.soft(matchesShape(text, example.body), `${example.command}\n${text}`).toBe(true)
    }
  }
)

/** The first fenced block of a README section with the given language. */
function block(heading: string, lang: string): string {
  const section = README.split(`## ${heading}\n`)[1]?.split('\n## ')[0] ?? ''
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? ''
}

test('the README shows --help as the CLI prints it', () => {
  expect(block('CLI options', 'text')).toBe(helpText(VERSION))
})

test('the Docker section’s setup line makes the scenario its next command loads', () => {
  const commands = block('Docker', 'sh').trim().split('\n')
  const setup = commands.find((line) => line.startsWith('mkdir -p my-scenarios'))
  const run = commands.find((line) => line.includes('-e SCENARIO=my-scenario'))
  expect(run).toContain('-v "$PWD/my-scenarios:/scenarios:ro"')
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-docker-readme-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  execFileSync('bash', ['-euc', setup ?? 'false'], { cwd: dir })
  // What the image does with SCENARIOS_DIR=/scenarios and SCENARIO=my-scenario.
  const { state } = createMock({ scenariosDir: join(dir, 'my-scenarios'), scenario: 'my-scenario' })
  expect(state.scenario.name).toBe('my-scenario')
})

test('the Docker section publishes the port the container listens on', () => {
  for (const line of block('Docker', 'sh')
    .split('\n')
    .filter((l) => l.includes('docker run'))) {
    const published = /-p (\d+):(\d+)/.exec(line)?.[2]
    const inside = /-e PORT=(\d+)/.exec(line)?.[1] ?? '4000'
    expect(published, line).toBe(inside)
  }
})

test('every curl example of "Test your notification flow" answers the same in 2024-10', async () => {
  const mock = await startMock({ port: 0, logLevel: 'silent', apiGeneration: '2024-10' })
  onTestFinished(() => mock.close())
  for (const example of examples('Test your notification flow')) {
    const { url, init } = toRequest(example.command, mock.url)
    const res = await fetch(url, init)
    const text = await res.text()
    expect.soft(res.status, example.command).toBe(example.status)
    if (example.body)
      expect.soft(matchesShape(text, example.body), `${example.command}\n${text}`).toBe(true)
  }
})
