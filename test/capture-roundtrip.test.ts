import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import type { RunningMock } from '../src/server.js'
import {
  buildSourceState,
  call,
  outFile,
  runCapture,
  SOURCE_KEY,
  startTestMock,
  type Generation,
} from './capture-helpers.js'

const run = promisify(execFile)
const CLI = new URL('../dist/novu-mock.mjs', import.meta.url).pathname

/** The fields an answer carries of its own environment (and time) are no part of the comparison. */
const OWN_FIELDS = new Set(['_environmentId', '_organizationId', 'timestamp'])
const portable = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body, (key, value) => (OWN_FIELDS.has(key) ? undefined : value)))

/** The GETs whose answers a copy must give as its source did, in the generation's routes. */
function reads(generation: Generation, workflowIds: string[]): string[] {
  const common = [
    '/v1/notification-groups',
    '/v1/workflows',
    ...workflowIds.map((id) => `/v1/workflows/${id}`),
    '/v1/topics',
    '/v1/topics/beta-users',
    '/v1/subscribers',
    '/v1/subscribers/ann',
    '/v1/tenants',
  ]
  if (generation === '2024-10') return common
  return [
    ...common.filter((path) => !path.startsWith('/v1/workflows/')),
    '/v2/topics',
    '/v2/topics/beta-users/subscriptions',
    '/v2/subscribers',
  ]
}

/** A /v2 workflow as a client compares it: ids, identifiers, names, steps and their values. */
function v2Workflow(body: { data: Record<string, unknown> }) {
  const { _id, workflowId, name, tags, active, status, origin, createdAt, steps } = body.data
  return {
    _id,
    workflowId,
    name,
    tags,
    active,
    status,
    origin,
    createdAt,
    steps: (steps as Record<string, unknown>[]).map((s) => ({
      _id: s._id,
      stepId: s.stepId,
      name: s.name,
      type: s.type,
      controlValues: s.controlValues,
      issues: s.issues,
    })),
  }
}

async function expectSameAnswers(source: RunningMock, copy: RunningMock, generation: Generation) {
  const listed = await call(source, 'GET', '/v1/workflows')
  const ids = listed.body.data.map((w: { _id: string }) => w._id)
  for (const path of reads(generation, ids)) {
    const before = await call(source, 'GET', path)
    const after = await call(copy, 'GET', path, undefined, 'ci-key')
    expect({ path, status: after.status, body: portable(after.body) }).toEqual({
      path,
      status: before.status,
      body: portable(before.body),
    })
  }
  if (generation === '2024-10') return
  const v2 = await call(source, 'GET', '/v2/workflows')
  const copied = await call(copy, 'GET', '/v2/workflows', undefined, 'ci-key')
  expect(copied.body.data.totalCount).toBe(v2.body.data.totalCount)
  for (const { _id } of v2.body.data.workflows) {
    const one = v2Workflow((await call(source, 'GET', `/v2/workflows/${_id}`)).body)
    const other = v2Workflow(
      (await call(copy, 'GET', `/v2/workflows/${_id}`, undefined, 'ci-key')).body
    )
    expect(other).toEqual(one)
  }
}

interface Message {
  templateIdentifier: string
  subscriber?: { subscriberId: string }
  content: unknown
}

/** Each workflow triggered for a subscriber and a topic: the statuses and the in-app messages. */
async function triggerResults(mock: RunningMock, key: string, identifiers: string[]) {
  const out: unknown[] = []
  for (const name of identifiers) {
    for (const to of ['ann', [{ type: 'Topic', topicKey: 'beta-users' }]]) {
      const res = await call(
        mock,
        'POST',
        '/v1/events/trigger',
        { name, to, payload: { orderId: 'A-1' } },
        key
      )
      out.push({ name, status: res.status, result: res.body.data?.status })
    }
  }
  const messages = await call(mock, 'GET', '/v1/messages?channel=in_app&limit=100', undefined, key)
  const seen = messages.body.data.map((m: Message) => ({
    workflow: m.templateIdentifier,
    subscriber: m.subscriber?.subscriberId,
    content: m.content,
  }))
  return {
    out,
    messages: seen.sort((a: object, b: object) =>
      JSON.stringify(a).localeCompare(JSON.stringify(b))
    ),
  }
}

const identifiersOf = (generation: Generation) =>
  generation === '2026-08' ? ['welcome-email', 'order-shipped'] : ['welcome-email']

test.each(['2026-08', '2024-10'] as const)(
  '%s: a captured environment loaded into a second mock answers the same GETs and triggers',
  async (generation) => {
    const source = await startTestMock({ scenario: 'empty', apiGeneration: generation })
    await buildSourceState(source, generation)
    const file = await outFile('mine.yaml')
    const captured = await runCapture(['--from', source.url, '--key', SOURCE_KEY, '--out', file])
    expect(captured.code).toBe(0)
    expect(captured.stdout).toContain(`(Novu ${generation}) into ${file}`)
    const copy = await startTestMock({ scenario: file, apiGeneration: undefined })
    expect(copy.state.generation().name).toBe(generation)
    await expectSameAnswers(source, copy, generation)
    const identifiers = identifiersOf(generation)
    const before = await triggerResults(source, SOURCE_KEY, identifiers)
    const after = await triggerResults(copy, 'ci-key', identifiers)
    expect(after).toEqual(before)
    expect(before.messages.length).toBeGreaterThan(0)
  }
)

test.each(['2026-08', '2024-10'] as const)(
  '%s: the built CLI captures into JSON, and the mock started with that file answers the same',
  async (generation) => {
    const source = await startTestMock({ scenario: 'empty', apiGeneration: generation })
    await buildSourceState(source, generation)
    const file = await outFile('from-cli.json')
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, 'capture', '--from', source.url, '--out', file],
      {
        env: { ...process.env, NOVU_SECRET_KEY: SOURCE_KEY },
      }
    )
    expect(stdout).toMatch(
      /^Captured 2 notification groups, \d workflows, 1 topics, 3 subscribers, 1 tenants/
    )
    expect(stderr).toContain('  workflows: ')
    expect(JSON.parse(await readFile(file, 'utf8')).apiGeneration).toBe(generation)
    const copy = await startTestMock({ scenario: file, apiGeneration: undefined })
    await expectSameAnswers(source, copy, generation)
  }
)
