import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { MAX_RULES_BYTES } from '../src/chaos/rule-budget.js'
import { request, type Requestable } from './helpers.js'

// A full collection makes heap figures comparable; vitest's workers run without --expose-gc.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const MB = 1024 * 1024
const heapUsed = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Node keeps the last request's body alive until the next request: one body, 20 MB at most. */
const LAST_BODY = 20 * MB
const admin = { key: null }
const options = { apiGeneration: '2024-10', logLevel: 'silent' } as const

/**
 * A request, and how much the heap grew while it ran, garbage included: building an environment
 * allocates tens of MB, most of which outlives the young generation's collections, where a
 * refusal worked out from the budget's estimate allocates next to nothing.
 */
async function allocating(...args: Parameters<typeof request>) {
  const before = heapUsed()
  const res = await request(...args)
  return { ...res, allocated: process.memoryUsage().heapUsed - before }
}

function inlineScenario(name: string, generate: Record<string, number>) {
  return { scenario: { name, fixture: 'default', data: { generate } } }
}

test('the large scenario answers 403 naming --max-memory-mb for a key past the budget and keeps serving the keys it holds', async () => {
  const { app, state } = createMock({ ...options, scenario: 'large', maxMemoryMb: 400 })
  const before = heapUsed()
  const statuses: number[] = []
  let refused
  for (let i = 0; i < 4 && !refused; i++) {
    const res = await allocating(app, 'GET', '/v1/topics?pageSize=1', { key: `large-${i}` })
    statuses.push(res.status)
    if (res.status !== 200) refused = res
  }
  expect(statuses[0]).toBe(200)
  expect(refused?.status).toBe(403)
  expect(refused?.body.message).toMatch(/memory budget of \d+ MB.*--max-memory-mb/)
  // Refused from the estimate, before the environment is built (which allocates its footprint).
  expect(refused?.allocated).toBeLessThan(state.environments.footprint('large-0') / 10)
  // What the environments really take stays within the budget's estimate of them.
  expect(heapUsed() - before).toBeLessThan(state.environments.budget.used())
  expect(state.environments.budget.used()).toBeLessThanOrEqual(state.environments.budget.limit)
  const held = state.environments.peek('large-0')
  const again = await request(app, 'GET', '/v1/topics?pageSize=1', { key: 'large-0' })
  expect(again.status).toBe(200)
  expect(again.body.totalCount).toBe(50_003)
  // Served by the environment it holds, not one rebuilt to make room.
  expect(state.environments.peek('large-0')).toBe(held)
}, 120_000)

test('resetting environments gives their memory back: a refused key gets its environment after POST /__admin/reset', async () => {
  const { app } = createMock({ ...options, scenario: 'empty', maxMemoryMb: 64 })
  await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: inlineScenario('bulky', { topics: 20_000 }),
  })
  let refusedAt = -1
  for (let i = 0; i < 10 && refusedAt < 0; i++)
    if ((await request(app, 'GET', '/v1/topics', { key: `bulky-${i}` })).status === 403)
      refusedAt = i
  expect(refusedAt).toBeGreaterThan(0)
  expect((await request(app, 'POST', '/__admin/reset', admin)).status).toBe(200)
  expect((await request(app, 'GET', '/v1/topics', { key: `bulky-${refusedAt}` })).status).toBe(200)
})

test('a per-key reset gives that key’s memory back', async () => {
  const { app } = createMock({ ...options, scenario: 'empty', maxMemoryMb: 64 })
  await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: inlineScenario('bulky', { topics: 20_000 }),
  })
  const keys: string[] = []
  for (let i = 0; i < 10; i++) {
    const res = await request(app, 'GET', '/v1/topics', { key: `k-${i}` })
    if (res.status === 403) break
    keys.push(`k-${i}`)
  }
  expect((await request(app, 'GET', '/v1/topics', { key: 'newcomer' })).status).toBe(403)
  await request(app, 'POST', `/__admin/reset?apiKey=${keys[0]}`, admin)
  expect((await request(app, 'GET', '/v1/topics', { key: 'newcomer' })).status).toBe(200)
})

test('the largest generate counts the schema allows build one environment whose export streams whole', async () => {
  const { app, state } = createMock({ ...options, scenario: 'empty' })
  const maxed = {
    notificationGroups: 1_000,
    topics: 100_000,
    workflows: 20_000,
    transactions: 30_000,
  }
  const loaded = await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: inlineScenario('maxed', maxed),
  })
  expect(loaded.status).toBe(200)
  expect((await request(app, 'GET', '/v1/topics?pageSize=1', { key: 'max' })).status).toBe(200)
  expect(state.environments.budget.used()).toBeLessThanOrEqual(state.environments.budget.limit)

  const res = await app.request('/__admin/state?apiKey=max')
  expect(res.status).toBe(200)
  const decoder = new TextDecoder()
  let bytes = 0
  let head = ''
  let tail = ''
  for await (const chunk of res.body as ReadableStream<Uint8Array>) {
    if (!head) head = decoder.decode(chunk.subarray(0, 24))
    tail = decoder.decode(chunk.subarray(-2))
    bytes += chunk.byteLength
  }
  expect(head).toBe('{"notificationGroups":[{')
  expect(tail).toBe(']}')
  expect(bytes).toBeGreaterThan(100 * MB)
  // The third key aborted the process before the budget; now the second is refused.
  const second = await allocating(app, 'GET', '/v1/topics?pageSize=1', { key: 'max-2' })
  expect(second.status).toBe(403)
  expect(second.allocated).toBeLessThan(state.environments.footprint('max') / 10)
}, 180_000)

test('generate counts above the maxima are refused when the scenario loads', async () => {
  const { app } = createMock(options)
  const res = await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: inlineScenario('huge', { topics: 500_000, workflows: 200_000 }),
  })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(JSON.stringify(res.body)).toContain('data.generate.topics')
  expect((await request(app, 'GET', '/__admin/scenario', admin)).body.data.name).toBe('default')
})

test('a scenario one environment of which the budget cannot hold is refused at load, naming the option', async () => {
  const { app } = createMock({ ...options, maxMemoryMb: 128 })
  const res = await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: inlineScenario('too-big', { topics: 100_000 }),
  })
  expect(res.status).toBe(400)
  expect(JSON.stringify(res.body)).toContain('--max-memory-mb')
  expect((await request(app, 'GET', '/__admin/scenario', admin)).body.data.name).toBe('default')
})

test('a start with a scenario the budget cannot hold fails, naming the option', () => {
  expect(() => createMock({ ...options, scenario: 'large', maxMemoryMb: 128 })).toThrow(
    /--max-memory-mb/
  )
})

test('MAX_MEMORY_MB sets the budget of the CLI, whose start fails naming it when the scenario cannot fit', async () => {
  // The built CLI, as users run it (npm test builds dist/ first).
  const cli = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
  const child = spawn(process.execPath, [cli, '--port', '0', '--scenario', 'large'], {
    env: { ...process.env, MAX_MEMORY_MB: '128' },
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = await once(child, 'exit')
  expect(code).not.toBe(0)
  expect(stderr).toContain('128 MB (--max-memory-mb, MAX_MEMORY_MB)')
})

test('a journal the budget cannot hold stops the start, naming --journal-size', () => {
  expect(() => createMock({ ...options, journalSize: 1_000_000 })).toThrow(/--journal-size/)
})

const bigState = (name: string) => ({ topics: [{ key: 'big', name }] })
const letter = (i: number) => String.fromCharCode(97 + i)

test('repeated 16 MB state imports into one key replace its footprint instead of adding to it', async () => {
  const { app, state } = createMock({ ...options, maxMemoryMb: 128 })
  const footprints: number[] = []
  for (let i = 0; i < 12; i++) {
    expect((await putBigState(app, 'importer', letter(i))).status).toBe(200)
    footprints.push(state.environments.budget.used())
  }
  expect(new Set(footprints).size).toBe(1)
}, 60_000)

/** One import of a 16 MB state; the body lives in this frame only, so it is garbage once answered. */
async function putBigState(app: Requestable, key: string, fill: string) {
  const res = await app.request(`/__admin/state?apiKey=${key}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(bigState(fill.repeat(16 * MB))),
  })
  if (res.status === 200) {
    await res.body?.cancel()
    return { status: res.status, message: '' }
  }
  return { status: res.status, message: ((await res.json()) as { message: string }).message }
}

test('state imports into many keys stop at the budget with a 403, and every stored import stays whole', async () => {
  const { app, state } = createMock({ ...options, maxMemoryMb: 128 })
  const before = heapUsed()
  const stored: string[] = []
  let refused
  let heldBefore = 0
  for (let i = 0; i < 20 && !refused; i++) {
    heldBefore = state.environments.budget.get('environments')
    const res = await putBigState(app, `imp-${i}`, letter(i))
    if (res.status === 200) stored.push(`imp-${i}`)
    else refused = res
  }
  expect(stored.length).toBeGreaterThan(1)
  expect(refused?.status).toBe(403)
  expect(refused?.message).toContain('--max-memory-mb')
  // Refused whole: no environment for the key, nothing more held.
  expect(state.environments.peek(`imp-${stored.length}`)).toBeUndefined()
  expect(state.environments.budget.get('environments')).toBe(heldBefore)
  expect(heapUsed() - before).toBeLessThan(
    state.environments.budget.get('environments') + LAST_BODY
  )
  const last = stored.length - 1
  const kept = await request(app, 'GET', `/__admin/state?apiKey=imp-${last}`, admin)
  expect(kept.body.topics[0].name).toBe(letter(last).repeat(16 * MB))
}, 120_000)

test('an export streams the same text JSON.stringify gives its data', async () => {
  const { app } = createMock(options)
  await request(app, 'POST', '/v1/notification-groups', { key: 'exp', body: { name: 'Ops' } })
  const res = await request(app, 'GET', '/__admin/state?apiKey=exp', admin)
  expect(res.status).toBe(200)
  expect(Object.keys(res.body)).toEqual(
    expect.arrayContaining(['notificationGroups', 'topics', 'workflows', 'messages'])
  )
  expect(res.text).toBe(JSON.stringify(res.body))
})

const faultRule = (bytes: number) => ({
  match: { path: '/v1/topics' },
  fault: { status: 503, body: { pad: 'x'.repeat(bytes) } },
})

test('a fault body over 1 MB is refused', async () => {
  const { app } = createMock(options)
  const res = await request(app, 'POST', '/__admin/rules', { ...admin, body: faultRule(19 * MB) })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(JSON.stringify(res.body)).toContain('1 MB')
})

test('rules past 32 MB of JSON in all are refused with 400, and removing one makes room', async () => {
  const { app } = createMock({ ...options, maxMemoryMb: 1024 })
  const ids: string[] = []
  let refused
  for (let i = 0; i < 40 && !refused; i++) {
    const res = await request(app, 'POST', '/__admin/rules', {
      ...admin,
      body: faultRule(MB - 64),
    })
    if (res.status === 201) ids.push(res.body.data.id)
    else refused = res
  }
  const ruleBytes = Buffer.byteLength(JSON.stringify(faultRule(MB - 64)))
  expect(ids.length).toBe(Math.floor(MAX_RULES_BYTES / ruleBytes))
  expect(refused?.status).toBe(400)
  expect(refused?.body.message).toMatch(/Too many rule bytes/)
  await request(app, 'DELETE', `/__admin/rules/${ids[0]}`, admin)
  const room = await request(app, 'POST', '/__admin/rules', { ...admin, body: faultRule(MB - 64) })
  expect(room.status).toBe(201)
}, 60_000)

test('a rule the memory budget cannot hold is refused with 403, and the mock goes on answering', async () => {
  // The journal counts what its entries hold, next to nothing here: the rules fill the budget.
  const { app } = createMock({ ...options, maxMemoryMb: 16, journalSize: 100 })
  let refused
  for (let i = 0; i < 20 && !refused; i++) {
    const res = await request(app, 'POST', '/__admin/rules', { ...admin, body: faultRule(MB - 64) })
    if (res.status !== 201) refused = res
  }
  expect(refused?.status).toBe(403)
  expect(refused?.body.message).toContain('--max-memory-mb')
  await request(app, 'DELETE', '/__admin/rules', admin)
  expect((await request(app, 'GET', '/v1/notification-groups', { key: 'r' })).status).toBe(200)
})

test('workflow creates stop at the budget with a 403, and the workflows created stay', async () => {
  const { app, state } = createMock({ ...options, maxMemoryMb: 40 })
  const groups = await request(app, 'GET', '/v1/notification-groups', { key: 'writer' })
  const notificationGroupId = groups.body.data[0]._id
  const before = heapUsed()
  const created: string[] = []
  let refused
  let heldBefore = 0
  for (let i = 0; i < 40 && !refused; i++) {
    heldBefore = state.environments.budget.get('environments')
    const res = await request(app, 'POST', '/v1/workflows', {
      key: 'writer',
      body: {
        name: `Big ${i}`,
        notificationGroupId,
        steps: [{ template: { type: 'sms', content: letter(i).repeat(1.5 * MB) } }],
      },
    })
    if (res.status === 201) created.push(res.body.data._id)
    else refused = res
  }
  expect(created.length).toBeGreaterThan(1)
  expect(refused?.status).toBe(403)
  expect(refused?.body.message).toContain('--max-memory-mb')
  // Refused before it is stored: the key holds what it held.
  expect(state.environments.budget.get('environments')).toBe(heldBefore)
  expect(heapUsed() - before).toBeLessThan(
    state.environments.budget.get('environments') + LAST_BODY
  )
  for (const id of created)
    expect((await request(app, 'GET', `/v1/workflows/${id}`, { key: 'writer' })).status).toBe(200)
}, 60_000)
