import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { GENERATIONS } from './trigger-helpers.js'

// The oracle of every cache (src/cache.ts): a few hundred varied requests, the same for both,
// against a mock with caches on (in this process) and the built CLI with NOVU_MOCK_CACHES=off,
// must answer byte for byte the same. With caches off no workflow is stored compact (a body's
// text memo notes what was sent before), so this checks the compact workflow storage against
// the plain objects it replaces too.

const CLI = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
const stops: (() => unknown)[] = []
afterAll(async () => {
  for (const stop of stops) await stop()
})

async function cachesOffMock(generation: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [CLI, '--port', '0', '--seed', 'oracle', '--api-generation', generation],
    { env: { ...process.env, NOVU_MOCK_CACHES: 'off' } }
  )
  stops.push(() => child.kill('SIGKILL'))
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  for (let i = 0; i < 400 && !/listening on (http:\/\/\S+)/.test(out); i++)
    await new Promise((r) => setTimeout(r, 25))
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
  if (!url) throw new Error('the CLI did not start')
  return url
}

async function cachesOnMock(generation: (typeof GENERATIONS)[number]): Promise<RunningMock> {
  const mock = await startMock({
    port: 0,
    seed: 'oracle',
    apiGeneration: generation,
    caches: 'on',
    logLevel: 'silent',
  })
  stops.push(() => mock.close())
  return mock
}

/** A small generator of its own, so that the requests are the same on every run. */
function prng(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  }
}

interface Call {
  method: string
  path: string
  key?: string
  /** An object sent as JSON, or a text sent as it is (malformed JSON). */
  body?: unknown
}

const GROUP = '66fbb0a0c1f2e3d4a5b60001'
const KEYS = ['oracle-a', 'oracle-b']

/** Workflow bodies: a few sent again and again (stored compact with caches on). */
const V1_BODIES = [
  {
    name: 'Welcome',
    notificationGroupId: GROUP,
    active: true,
    steps: [
      { template: { type: 'in_app', content: 'Hi {{payload.name}} {{subscriber.firstName}}' } },
    ],
  },
  {
    name: 'Digest',
    notificationGroupId: GROUP,
    active: true,
    steps: [
      { template: { type: 'sms', content: '{{#each payload.items}}{{this}},{{/each}}' } },
      {
        template: {
          type: 'email',
          subject: 'Order {{payload.order.id}}',
          content: [{ type: 'text', content: 'Dear {{subscriber.lastName}}' }],
        },
      },
    ],
  },
  {
    name: 'Liquid',
    notificationGroupId: GROUP,
    active: false,
    steps: [
      {
        template: {
          type: 'in_app',
          content: '{{ payload.name | upcase }} {% if payload.vip %}VIP{% endif %}',
        },
      },
    ],
  },
]

const v2Body = (i: number) => ({
  name: `Flow ${i}`,
  workflowId: `flow-${i}`,
  steps: [
    { name: 'Inbox', type: 'in_app', controlValues: { body: 'Invoice {{payload.id}} paid' } },
    ...(i % 2
      ? [{ name: 'Mail', type: 'email', controlValues: { subject: 'S {{payload.id}}', body: 'B' } }]
      : []),
  ],
})

/** The requests: setup first, then a seeded mix of every route family, errors included. */
function calls(count: number): Call[] {
  const r = prng(20261127)
  const list: Call[] = []
  const subscribers = ['sub-0', 'sub-1', 'sub-2', 'sub-3']
  const topics = ['news', 'deals']
  for (const key of KEYS) {
    for (const subscriberId of subscribers)
      list.push({
        method: 'POST',
        path: '/v1/subscribers',
        key,
        body: { subscriberId, firstName: `F ${subscriberId}`, lastName: 'L' },
      })
    for (const t of topics)
      list.push({ method: 'POST', path: '/v1/topics', key, body: { key: t, name: t } })
    for (let i = 0; i < 6; i++)
      list.push({ method: 'POST', path: '/v1/workflows', key, body: V1_BODIES[i % 3] })
  }
  const pages = ['', '?page=0&limit=2', '?page=1&limit=2', '?limit=10', '?page=-1', '?limit=abc']
  const families: (() => Call)[] = [
    () => ({ method: 'POST', path: '/v1/workflows', body: r.pick(V1_BODIES) }),
    () => ({ method: 'GET', path: `/v1/workflows${r.pick(pages)}` }),
    () => ({
      method: 'GET',
      path: `/v1/workflows/${r.pick(['', 'nope', '66fbb0a0c1f2e3d4a5b6ffff'])}`,
    }),
    () => ({
      method: 'PUT',
      path: `/v1/workflows/WORKFLOW${r.int(8)}/status`,
      body: { active: r.int(2) === 1 },
    }),
    () => ({ method: 'GET', path: `/v1/workflows/WORKFLOW${r.int(8)}` }),
    () => ({ method: 'DELETE', path: `/v1/workflows/WORKFLOW${r.int(12)}` }),
    () => ({ method: 'POST', path: '/v2/workflows', body: v2Body(r.int(4)) }),
    () => ({
      method: 'GET',
      path: `/v2/workflows${r.pick(['', '?limit=2', '?offset=1&limit=1', '?query=flow'])}`,
    }),
    () => ({ method: 'GET', path: `/v2/workflows/flow-${r.int(5)}` }),
    () => ({
      method: 'POST',
      path: '/v1/subscribers',
      body: { subscriberId: r.pick(subscribers), email: `e${r.int(3)}@x.io` },
    }),
    () => ({ method: 'GET', path: `/v1/subscribers${r.pick(pages)}` }),
    () => ({ method: 'GET', path: `/v1/subscribers/${r.pick([...subscribers, 'ghost'])}` }),
    () => ({
      method: 'PUT',
      path: `/v1/subscribers/${r.pick(subscribers)}`,
      body: { lastName: `N${r.int(3)}` },
    }),
    () => ({ method: 'GET', path: `/v2/subscribers/${r.pick([...subscribers, 'ghost'])}` }),
    () => ({
      method: 'PATCH',
      path: `/v2/subscribers/${r.pick(subscribers)}`,
      body: { firstName: `P${r.int(3)}` },
    }),
    () => ({
      method: 'POST',
      path: '/v2/subscribers',
      body: { subscriberId: `v2-${r.int(3)}`, firstName: 'V' },
    }),
    () => ({ method: 'GET', path: `/v1/topics${r.pick(['', '?page=0&pageSize=1', '?key=news'])}` }),
    () => ({
      method: 'POST',
      path: `/v1/topics/${r.pick(topics)}/subscribers`,
      body: { subscribers: [r.pick(subscribers)] },
    }),
    () => ({ method: 'GET', path: `/v1/topics/${r.pick([...topics, 'none'])}` }),
    () => ({
      method: 'GET',
      path: `/v2/topics${r.pick(['', '?limit=1', '?limit=-5', '?after=nope'])}`,
    }),
    () => ({ method: 'GET', path: `/v2/topics/${r.pick([...topics, 'nope'])}` }),
    () => ({
      method: 'POST',
      path: '/v1/events/trigger',
      body: {
        name: r.pick(['welcome', 'digest', 'liquid', 'missing']),
        to: r.int(3) === 0 ? [{ type: 'Topic', topicKey: r.pick(topics) }] : r.pick(subscribers),
        payload: {
          name: `n${r.int(3)}`,
          items: ['a', 'b'],
          order: { id: r.int(9) },
          vip: r.int(2) === 1,
        },
      },
    }),
    () => ({
      method: 'GET',
      path: `/v1/messages${r.pick(['', '?limit=3', '?channel=in_app', '?subscriberId=sub-1', '?subscriberId=nobody', '?limit=1001'])}`,
    }),
    () => ({ method: 'GET', path: `/v1/notifications${r.pick(['', '?page=1', '?channels=sms'])}` }),
    () => ({ method: 'GET', path: '/v1/notification-groups' }),
    () => ({ method: 'POST', path: '/v1/workflows', body: '{"name": "broken",' }),
    () => ({ method: 'POST', path: '/v1/subscribers', body: { subscriberId: 42, email: ['x'] } }),
    () => ({ method: 'GET', path: `/v9/nothing/${r.int(3)}` }),
  ]
  for (let i = 0; i < count; i++) list.push({ ...r.pick(families)(), key: r.pick(KEYS) })
  return list
}

/** An answer without what depends on the time it was made, or on the process. */
const comparable = (text: string) =>
  text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/"errorId":"[^"]*"/g, '"errorId":"<id>"')
    // A 2026-08 transaction id starts with the Unix seconds of the answer: two processes can
    // straddle a second.
    .replace(/"txn_[0-9a-f]{8}/g, '"txn_<seconds>')

async function send(base: string, call: Call, ids: Map<string, string>) {
  // A workflow is named by the id the key's n-th create answered (the same on both mocks).
  const path = call.path.replace(
    /WORKFLOW(\d+)/,
    (_, n: string) => ids.get(`${call.key} ${n}`) ?? 'none'
  )
  const res = await fetch(base + path, {
    method: call.method,
    headers: {
      authorization: `ApiKey ${call.key}`,
      ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(call.body !== undefined
      ? { body: typeof call.body === 'string' ? call.body : JSON.stringify(call.body) }
      : {}),
  })
  const text = await res.text()
  if (call.method === 'POST' && call.path === '/v1/workflows' && res.status === 201) {
    const created = [...ids.keys()].filter((k) => k.startsWith(`${call.key} `)).length
    ids.set(`${call.key} ${created}`, (JSON.parse(text) as { data: { _id: string } }).data._id)
  }
  return `${res.status} ${res.headers.get('content-type')}\n${comparable(text)}`
}

test.each(GENERATIONS)(
  'in %s, 400 varied requests answer byte for byte the same with caches on and off',
  async (generation) => {
    const [on, offUrl] = await Promise.all([cachesOnMock(generation), cachesOffMock(generation)])
    const onIds = new Map<string, string>()
    const offIds = new Map<string, string>()
    const statuses = new Set<number>()
    for (const call of calls(400)) {
      const [a, b] = [await send(on.url, call, onIds), await send(offUrl, call, offIds)]
      expect(b, `${call.method} ${call.path}`).toBe(a)
      statuses.add(Number(a.slice(0, 3)))
    }
    // The run reached successes and errors alike, and the caches were used and refused.
    expect([...statuses].some((s) => s >= 400)).toBe(true)
    expect([...statuses].some((s) => s < 300)).toBe(true)
    const onCaches = (await (await fetch(`${on.url}/__admin/caches`)).json()) as CachesView
    const offCaches = (await (await fetch(`${offUrl}/__admin/caches`)).json()) as CachesView
    expect(onCaches.enabled).toBe(true)
    expect(offCaches.enabled).toBe(false)
    expect(onCaches.caches.reduce((sum, c) => sum + c.hits, 0)).toBeGreaterThan(100)
    expect(offCaches.caches.reduce((sum, c) => sum + c.hits, 0)).toBe(0)
    // Workflows sent again were stored compact on the mock with caches on (their hot copies).
    expect(onCaches.caches.find((c) => c.name === 'hydrated workflows')?.entries).toBeGreaterThan(0)
  },
  120_000
)

interface CachesView {
  enabled: boolean
  caches: { name: string; hits: number; entries: number }[]
}
