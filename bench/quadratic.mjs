// Times the requests issue 18 found quadratic (or unbounded), at two sizes each, so that the
// growth shows: linear work doubles with the size, quadratic work quadruples.
//   node bench/quadratic.mjs [scenario …] [--scale=1]
// BENCH_DIST=<an older build> shows the figures before a change.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DIST } from './harness.mjs'

const { createMock } = await import(pathToFileURL(join(DIST, 'index.js')).href)

const KEY = 'quadratic'
const GROUP = '66fbb0a0c1f2e3d4a5b60001'

async function call(app, method, path, body, key = KEY) {
  const headers = { 'Content-Type': 'application/json' }
  if (key) headers.Authorization = `ApiKey ${key}`
  const res = await app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, text }
}

async function timed(work) {
  const start = performance.now()
  const result = await work()
  return { ms: performance.now() - start, result }
}

const fresh = () =>
  createMock({ seed: 'quadratic', scenario: 'empty', logLevel: 'silent', maxMemoryMb: 4096 }).app

async function v1Workflow(app, steps) {
  const res = await call(app, 'POST', '/v1/workflows', {
    name: 'Bench',
    notificationGroupId: GROUP,
    active: true,
    steps,
  })
  if (res.status !== 201) throw new Error(res.text)
  return JSON.parse(res.text).data.triggers[0].identifier
}

async function v2Workflow(app, steps, extra = {}) {
  const res = await call(app, 'POST', '/v2/workflows', {
    name: 'Bench',
    workflowId: 'bench',
    steps,
    ...extra,
  })
  if (res.status !== 201) throw new Error(res.text)
  return 'bench'
}

const recipients = (n, prefix = 's') => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const SCENARIOS = {
  /** An email body whose rendered HTML is `</a/` again and again, no `>` after it. */
  async sanitiser(n) {
    const app = fresh()
    const name = await v2Workflow(app, [
      {
        name: 'Mail',
        type: 'email',
        controlValues: { subject: 'Hi', body: `{% for i in (1..${n}) %}</a/{% endfor %}` },
      },
    ])
    const { ms, result } = await timed(() =>
      call(app, 'POST', '/v1/events/trigger', {
        name,
        to: { subscriberId: 'ann', email: 'ann@example.com' },
        payload: {},
      })
    )
    const messages = JSON.parse((await call(app, 'GET', '/v1/messages?channel=email')).text)
    return { ms, status: result.status, emails: messages.data.length }
  },

  /** The clock moved past n digests, each of its own subscriber. */
  async digests(n) {
    const app = fresh()
    const name = await v1Workflow(app, [
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      { template: { type: 'in_app', content: 'Digest of {{step.total_count}}' } },
    ])
    const trigger = await timed(() =>
      call(app, 'POST', '/v1/events/trigger', { name, to: recipients(n), payload: {} })
    )
    const { ms, result } = await timed(() =>
      call(app, 'POST', '/__admin/clock', { advance: '10m' }, null)
    )
    return { ms, status: result.status, 'trigger ms': trigger.ms.toFixed(0) }
  },

  /** One transaction of n delayed jobs canceled. */
  async cancel(n) {
    const app = fresh()
    const name = await v1Workflow(app, [
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      { template: { type: 'in_app', content: 'Later' } },
    ])
    await call(app, 'POST', '/v1/events/trigger', {
      name,
      to: recipients(n),
      payload: {},
      transactionId: 'tx',
    })
    const { ms, result } = await timed(() => call(app, 'DELETE', '/v1/events/trigger/tx'))
    return { ms, status: result.status }
  },

  /** A payload schema with an enum of n distinct numbers. */
  async enum(n) {
    const app = fresh()
    const values = Array.from({ length: n }, (_, i) => i)
    const { ms, result } = await timed(() =>
      call(app, 'POST', '/v2/workflows', {
        name: 'Enum',
        workflowId: 'enum',
        steps: [{ name: 'In app', type: 'in_app', controlValues: { body: 'x' } }],
        payloadSchema: { type: 'object', properties: { x: { enum: values } } },
      })
    )
    return { ms, status: result.status }
  },

  /** A trigger to n topics, each named 40 times in `to`. */
  async topics(n) {
    const app = fresh()
    const name = await v1Workflow(app, [{ template: { type: 'in_app', content: 'Hi' } }])
    for (let i = 0; i < n; i++) await call(app, 'POST', '/v1/topics', { key: `t${i}`, name: 't' })
    const to = []
    for (let r = 0; r < 40; r++)
      for (let i = 0; i < n; i++) to.push({ type: 'Topic', topicKey: `t${i}` })
    const { ms, result } = await timed(() =>
      call(app, 'POST', '/v1/events/trigger', { name, to, payload: {} })
    )
    return { ms, status: result.status }
  },

  /** A loop printing the payload through the json filter, the payload n characters long. */
  async json(n) {
    const app = fresh()
    const name = await v2Workflow(app, [
      {
        name: 'In app',
        type: 'in_app',
        controlValues: { body: '{%for i in (1..99999)%}{{payload|json}}{%endfor%}' },
      },
    ])
    const { ms, result } = await timed(() =>
      call(app, 'POST', '/v1/events/trigger', {
        name,
        to: 'ann',
        payload: { text: 'x'.repeat(n) },
      })
    )
    return { ms, status: result.status }
  },
}

const SIZES = {
  sanitiser: [4_000, 8_000],
  digests: [2_500, 5_000],
  cancel: [5_000, 10_000],
  enum: [5_000, 10_000],
  topics: [1_000, 2_000],
  json: [100, 200],
}

const args = process.argv.slice(2)
const scale = Number(args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1)
const chosen = args.filter((a) => !a.startsWith('--'))
const rows = []
for (const name of chosen.length ? chosen : Object.keys(SCENARIOS)) {
  for (const size of SIZES[name].map((s) => Math.round(s * scale))) {
    const { ms, ...rest } = await SCENARIOS[name](size)
    rows.push({ scenario: name, size, ms: Math.round(ms), ...rest })
    console.log(JSON.stringify(rows.at(-1)))
  }
}
console.table(rows)
