// Memory per stored record: workflows, messages and subscribers stored through the routes, in
// process (app.request, no sockets), heap measured after full collections. Messages come from
// triggers (one subscriber, an in-app and an email step: two messages each); what they alone
// take is what hard-deleting them gives back, apart from the notifications and jobs the same
// triggers keep. Run in a process of its own with --expose-gc:
// `node --expose-gc bench/records.mjs [count=100000] [2026-08|2024-10]`.
import { pathToFileURL } from 'node:url'
import { DIST, MB } from './harness.mjs'
import { WORKFLOW_BODY } from './workloads.mjs'
import { TRIGGER_WORKFLOW } from './routes.mjs'

const KEY = 'bench-records'
const HEADERS = { Authorization: `ApiKey ${KEY}`, 'Content-Type': 'application/json' }

function heapUsed() {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}

async function send(app, method, path, body) {
  const res = await app.request(path, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text
}

/** A subscriber as a test creates it: an id, a name and an email address. */
const subscriberBody = (i) => ({
  subscriberId: `bench-subscriber-${i}`,
  firstName: 'Ada',
  lastName: `Lovelace ${i}`,
  email: `ada.${i}@example.com`,
})

/**
 * Prepares `mock` to store records of `kind`; `more(n)` stores n more. For messages, n counts
 * messages (two per trigger).
 */
export async function storeRecords(mock, kind, warm = 1) {
  const { app, state } = mock
  await send(app, 'GET', '/v1/notification-groups')
  const generation = state.environments.peek(KEY).generation.name
  let next = 0
  let more
  if (kind === 'workflow') {
    more = async (n) => {
      for (let i = 0; i < n; i++) await send(app, 'POST', '/v1/workflows', WORKFLOW_BODY)
    }
  } else if (kind === 'distinct-workflow') {
    // Each body its own: a name and texts no other workflow has, so nothing is shared.
    const base = JSON.parse(WORKFLOW_BODY)
    more = async (n) => {
      for (let i = 0; i < n; i++) {
        const at = next++
        const steps = base.steps.map((step) => ({
          ...step,
          template: {
            ...step.template,
            subject: `Order ${at} shipped`,
            content: `${at}: ${JSON.stringify(step.template.content)}`,
          },
        }))
        await send(app, 'POST', '/v1/workflows', { ...base, name: `Order shipped ${at}`, steps })
      }
    }
  } else if (kind === 'subscriber') {
    const path = generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
    more = async (n) => {
      for (let i = 0; i < n; i++) await send(app, 'POST', path, subscriberBody(next++))
    }
  } else if (kind === 'topic') {
    // A topic as a test creates it: a key and a name, no subscribers.
    more = async (n) => {
      for (let i = 0; i < n; i++) {
        const at = next++
        await send(app, 'POST', '/v1/topics', { key: `bench-topic-${at}`, name: `Topic ${at}` })
      }
    }
  } else if (kind === 'message') {
    const created = JSON.parse(await send(app, 'POST', '/v1/workflows', TRIGGER_WORKFLOW))
    const name = created.data.triggers[0].identifier
    const subscribers = generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
    await send(app, 'POST', subscribers, subscriberBody(0))
    more = async (n) => {
      for (let i = 0; i < n; i += 2)
        await send(app, 'POST', '/v1/events/trigger', {
          name,
          to: { subscriberId: 'bench-subscriber-0' },
          payload: { orderId: `A-${next++}` },
        })
    }
  } else throw new Error(`unknown record kind ${kind}`)
  await more(warm)
  return { more, env: () => state.environments.peek(KEY) }
}

function dropMessages(env) {
  for (const message of env.messages.all()) env.messages.remove(message._id, '', true)
}

/** Heap per record over `count` records of each kind, in one generation. */
export async function recordMemory({ count = 100_000, generation = '2026-08', dist = DIST } = {}) {
  const { createMock } = await import(pathToFileURL(`${dist}/index.js`).href)
  const out = { generation, count }
  for (const kind of ['workflow', 'distinct-workflow', 'message', 'subscriber']) {
    const mock = createMock({
      apiGeneration: generation,
      scenario: 'empty',
      maxWorkflows: 0,
      journalSize: 0,
      logLevel: 'silent',
      // Room for the records: the budget is not what is measured here.
      maxMemoryMb: 16_384,
    })
    const records = await storeRecords(mock, kind, 100)
    const before = heapUsed()
    const footprintBefore = mock.state.environments.footprint(KEY)
    const started = performance.now()
    await records.more(count)
    const micros = ((performance.now() - started) * 1000) / count
    const after = heapUsed()
    // What the memory budget counted for them (a trigger's records, for messages).
    const budgeted = mock.state.environments.footprint(KEY) - footprintBefore
    const row = {
      bytes: Math.round((after - before) / count),
      micros: +micros.toFixed(1),
      budgetBytes: Math.round(budgeted / (kind === 'message' ? count / 2 : count)),
    }
    if (kind === 'message') {
      // The messages alone: hard-deleting them gives back what they hold.
      dropMessages(records.env())
      // A turn of the event loop: nothing of this frame may keep the list of messages alive.
      await new Promise((resolve) => setTimeout(resolve, 10))
      const without = heapUsed()
      row.perTriggerBytes = Math.round((after - before) / (count / 2))
      row.bytes = Math.round((after - without) / count)
    }
    out[kind === 'distinct-workflow' ? 'distinctWorkflow' : kind] = row
    out.heapMB = +(after / MB).toFixed(1)
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await recordMemory({
    count: Number(process.argv[2] ?? 100_000),
    generation: process.argv[3] ?? '2026-08',
  })
  if (process.send) process.send(result, () => process.exit(0))
  else console.log(result)
}
