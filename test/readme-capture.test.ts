import { execFile } from 'node:child_process'
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { parseCliOptions } from '../src/cli-options.js'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import { buildSourceState, SOURCE_KEY, startTestMock } from './capture-helpers.js'

const run = promisify(execFile)
const CLI = new URL('../dist/novu-mock.mjs', import.meta.url).pathname
const README = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const SECTION = README.split('## Bring your own workflows\n')[1]?.split('\n## ')[0] ?? ''

/** The fenced blocks of the section in a language, in order. */
const blocks = (lang: string) =>
  [...SECTION.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] ?? ''
  )

/** A command line's words, quotes removed and `"$VAR"` left as it is written. */
const words = (line: string) =>
  [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '')

const commandLines = (block: string) =>
  block.split('\n').filter((line) => line.startsWith('npx novu-mock') || line.startsWith('curl '))

test('the section captures with the README command, and CI starts the mock with its line', async () => {
  const [flow = ''] = blocks('sh')
  const [captureLine, ciLine] = commandLines(flow)
  const source = await startTestMock({ scenario: 'empty', apiGeneration: '2026-08' })
  await buildSourceState(source, '2026-08')
  const cwd = await mkdtemp(join(tmpdir(), 'readme-capture-'))
  const args = words(captureLine ?? '').slice(2)
  args[args.indexOf('--from') + 1] = source.url
  args.splice(args.indexOf('--key'), 2)
  const { stdout } = await run(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, NOVU_SECRET_KEY: SOURCE_KEY },
  })
  const promised = flow
    .split('\n')
    .filter((line) => line.startsWith('# Captured') || line.startsWith('# Run the mock'))
    .map((line) =>
      line.slice(2).replace(/\d+ (workflows|subscribers|topics|notification)/g, 'N $1')
    )
  const printed = stdout
    .trim()
    .split('\n')
    .map((line) =>
      line
        .replace(/\d+ (workflows|subscribers|topics|notification)/g, 'N $1')
        .replace(/\d+ tenants/, '0 tenants')
    )
  expect(printed).toEqual(promised)
  const { options } = parseCliOptions(words(ciLine ?? '').slice(2), {})
  const { app } = createMock({ ...options, scenariosDir: join(cwd, options.scenariosDir ?? '') })
  const res = await request(app, 'GET', '/v2/workflows/order-shipped')
  expect(res.status).toBe(200)
})

test('the captured file the section shows loads, answers with its ids and delivers', async () => {
  const [file = ''] = blocks('yaml')
  const dir = await mkdtemp(join(tmpdir(), 'readme-capture-'))
  await mkdir(join(dir, 'scenarios'))
  await writeFile(join(dir, 'scenarios', 'mine.yaml'), file)
  const { app } = createMock({
    scenariosDir: join(dir, 'scenarios'),
    scenario: 'mine',
    logLevel: 'silent',
  })
  const workflow = await request(app, 'GET', '/v2/workflows/order-shipped')
  expect(workflow.body.data).toMatchObject({
    _id: '66fbba1e079fcbff9efb7a7c',
    steps: [{ _id: '66fbba1c5cae57d0644619ee', stepId: 'in-app' }],
  })
  const trigger = await request(app, 'POST', '/v1/events/trigger', {
    body: {
      name: 'order-shipped',
      to: [{ type: 'Topic', topicKey: 'beta-users' }],
      payload: { orderId: 'A-1' },
    },
  })
  expect(trigger.body.data.status).toBe('processed')
  const messages = await request(app, 'GET', '/v1/messages?channel=in_app')
  expect(messages.body.data.map((m: { content: string }) => m.content)).toEqual([
    'Order A-1 shipped',
  ])
})

test('the --unknown-workflows example answers as its comment says', async () => {
  const [, lenient = ''] = blocks('sh')
  const [start, curl] = commandLines(lenient)
  const { options } = parseCliOptions(words(start ?? '').slice(2, -1), {})
  const { app } = createMock({ ...options, logLevel: 'silent' })
  const parts = words(curl ?? '')
  const headers = Object.fromEntries(
    parts.flatMap((w, i) => (parts[i - 1] === '-H' ? [w.split(': ') as [string, string]] : []))
  )
  const body = parts[parts.indexOf('-d') + 1]
  const res = await app.request('/v1/events/trigger', { method: 'POST', headers, body })
  const [, status, shape = ''] = /# → (\d+) (.*)/.exec(lenient) ?? []
  expect(res.status).toBe(Number(status))
  const text = await res.text()
  for (const piece of shape.split('…').filter(Boolean)) expect(text).toContain(piece)
})
