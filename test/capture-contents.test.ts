import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { captureCommand } from '../src/capture/index.js'
import { captureIo } from './replay-helpers.js'
import { call, captureFrom, outFile, SOURCE_KEY, startTestMock } from './capture-helpers.js'

const GENERATIONS = ['2026-08', '2024-10'] as const

/** A source with more subscribers and topics than one page holds. */
async function bigSource(apiGeneration: (typeof GENERATIONS)[number]) {
  const source = await startTestMock({ scenario: 'empty', apiGeneration })
  const subscribers = Array.from({ length: 130 }, (_, i) => ({
    subscriberId: `user-${String(i).padStart(3, '0')}`,
    firstName: `User ${i}`,
  }))
  const topics = Array.from({ length: 23 }, (_, i) => ({
    key: `topic-${i}`,
    name: `Topic ${i}`,
    subscribers: [`user-00${i % 10}`],
  }))
  await source.admin.loadScenario({ name: 'big', data: { subscribers, topics } })
  return source
}

const loaded = async (file: string) => {
  const copy = await startTestMock({ scenario: file, apiGeneration: undefined })
  const subscribers = await call(copy, 'GET', '/v1/subscribers?limit=100&page=1', undefined, 'ci')
  return { copy, subscribers }
}

test.each(GENERATIONS)(
  '%s: every page of subscribers and topics is captured',
  async (generation) => {
    const source = await bigSource(generation)
    const file = await outFile('big.yaml')
    const result = await captureFrom(source.url, file)
    expect(result.stdout).toContain('23 topics, 130 subscribers')
    const { copy, subscribers } = await loaded(file)
    expect(subscribers.body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(
      Array.from({ length: 30 }, (_, i) => `user-${100 + i}`)
    )
    const topic = await call(copy, 'GET', '/v1/topics/topic-22', undefined, 'ci')
    expect(topic.body.data.subscribers).toEqual(['user-002'])
  }
)

test.each(GENERATIONS)(
  '%s: --subscribers N captures the first N subscribers',
  async (generation) => {
    const source = await bigSource(generation)
    const file = await outFile('capped.yaml')
    const result = await captureFrom(source.url, file, '--subscribers', '105')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('105 subscribers')
    const text = await readFile(file, 'utf8')
    expect(text).toContain('subscriberId: user-104')
    expect(text).not.toContain('subscriberId: user-105')
  }
)

test.each(GENERATIONS)(
  '%s: --no-subscribers reads no subscriber list and writes none',
  async (generation) => {
    const source = await bigSource(generation)
    const file = await outFile('none.json')
    const result = await captureFrom(source.url, file, '--no-subscribers')
    expect(result.stdout).toContain('0 subscribers')
    expect(JSON.parse(await readFile(file, 'utf8')).data.subscribers).toEqual([])
    const lists = await source.admin.requests({ path: '/v1/subscribers' })
    const listsV2 = await source.admin.requests({ path: '/v2/subscribers' })
    expect([...lists, ...listsV2]).toEqual([])
  }
)

test('nothing secret is written: the key, and every field named like a secret, become placeholders', async () => {
  const source = await startTestMock({ scenario: 'empty', apiGeneration: '2026-08' })
  const secrets = [
    'sk_live_subscriber_token_1',
    'hunter2-password',
    'https://hooks.example/T0/B0/x',
  ]
  await call(source, 'POST', '/v1/subscribers', {
    subscriberId: 'ann',
    data: { apiKey: secrets[0], profile: { password: secrets[1], plan: 'pro' } },
  })
  await call(source, 'POST', '/v1/tenants', {
    identifier: 'acme',
    name: 'Acme',
    data: { slackWebhookUrl: secrets[2] },
  })
  const file = await outFile('secret.yaml')
  const result = await captureFrom(source.url, file)
  expect(result.stdout).toContain('3 secret values replaced by placeholders')
  const text = await readFile(file, 'utf8')
  for (const secret of [SOURCE_KEY, ...secrets]) expect(text).not.toContain(secret)
  expect(text).toContain('apiKey: <redacted by novu-mock capture>')
  expect(text).toContain('plan: pro')
  expect(text).toMatch(
    /^# Captured by novu-mock capture from http:\/\/127\.0\.0\.1:\d+ \(Novu 2026-08\)\.\n# Secrets are never written: .*\n# are replaced by "<redacted by novu-mock capture>" \(3 values: apiKey, password, slackWebhookUrl\),/
  )
  const copy = await startTestMock({ scenario: file, apiGeneration: undefined })
  const ann = await call(copy, 'GET', '/v1/subscribers/ann', undefined, 'ci')
  expect(ann.body.data.data.profile).toEqual({
    password: '<redacted by novu-mock capture>',
    plan: 'pro',
  })
})

test('on a terminal the progress redraws in place with a bar for long lists', async () => {
  const source = await bigSource('2026-08')
  const { io, out } = captureIo()
  const stderr = { write: io.stderr.write, isTTY: true }
  const file = await outFile('tty.yaml')
  const code = await captureCommand(['--from', source.url, '--key', SOURCE_KEY, '--out', file], {
    stdout: io.stdout,
    stderr,
    env: {},
  })
  expect(code).toBe(0)
  expect(out.stderr).toContain('\r  subscribers: 100/130 [##################------]')
  expect(out.stderr).toContain('\r  subscribers: 130\x1b[K\n')
})

test('off a terminal the progress is one line per kind, counts only', async () => {
  const source = await bigSource('2024-10')
  const result = await captureFrom(source.url, await outFile('log.yaml'))
  expect(result.stderr.split('\n').slice(1, 8)).toEqual([
    '  notification groups: 1',
    '  server answers as Novu 2024-10',
    '  workflows: 0',
    '  topics: 23',
    '  subscribers: 130',
    '  tenants: 0',
    '',
  ])
})
