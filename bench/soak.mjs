// Soak test: the built mock under a mixed workload for a fixed time, with invariants checked as it
// runs and at the end. Not part of `npm test`.
//
//   npm run build && node bench/soak.mjs                  # 60 s
//   SOAK_SECONDS=600 node bench/soak.mjs                  # ten minutes
//
// Environment: SOAK_SECONDS (60), SOAK_CLIENTS (8), SOAK_RESET_MS (1000, between environment
// resets), SOAK_CHAOS_MS (400, between chaos rule changes), SOAK_SAMPLE_MS (2000, RSS samples),
// SOAK_NODE_ARGS (flags for the mock's node, e.g. "--max-old-space-size=96": a leak then crashes it).
//
// Each client owns one API key, writes to it (groups, workflows, status toggles, transaction
// deletes), reads it back and keeps a model of what the server acknowledged. An admin loop resets
// random environments (pausing their client, which then re-reads its state), another adds and
// removes chaos rules that match only a dedicated chaos key, a third reads the journal. At the end:
// every acknowledged write is readable, memory has levelled off, and SIGTERM with requests in
// flight answers all of them and exits 0. Prints a summary; exits 1 on any failure.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8)
const RESET_MS = Number(process.env.SOAK_RESET_MS ?? 1000)
const CHAOS_MS = Number(process.env.SOAK_CHAOS_MS ?? 400)
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_MS ?? 2000)
const CHAOS_KEY = 'soak-chaos'
const GENERAL_GROUP = '66fbb0a0c1f2e3d4a5b60001'
const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push']
/** Memory may grow this much from the first third of the run to the last before it fails. */
const RSS_GROWTH_LIMIT = 1.5

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const pickOne = (list) => list[Math.floor(Math.random() * list.length)]

// ---------------------------------------------------------------------------------------------
// Bookkeeping

const failures = []
const statusCounts = new Map()
/** Latencies of the client keys and the admin loops; the chaos key's delays would drown them. */
const latencies = []
let requests = 0

function fail(message) {
  failures.push(message)
  if (failures.length <= 20) console.error(`FAIL ${message}`)
}

/** Status counts per key kind: the chaos key may see anything, the others only what they expect. */
function count(key, status) {
  const kind = key === CHAOS_KEY ? 'chaos key' : key ? 'client keys' : 'admin'
  const row = statusCounts.get(status) ?? { 'client keys': 0, admin: 0, 'chaos key': 0 }
  row[kind]++
  statusCounts.set(status, row)
}

// ---------------------------------------------------------------------------------------------
// The mock, as a child process

function startChild() {
  const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean)
  // The clients create workflows without bound between resets: upstream's workflow limit is off.
  const args = [CLI, '--port', '0', '--log-level', 'warn', '--max-workflows', '0']
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()))
  const url = new Promise((resolve, reject) => {
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString()
      const found = /novu-mock \S+ listening on (http:\/\/\S+)/.exec(stdout)
      if (found) resolve(found[1])
    })
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}): ${stderr}`)))
  })
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal }))
  )
  return { child, url, exited, stderr: () => stderr }
}

function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) * 1024 : NaN
}

// ---------------------------------------------------------------------------------------------
// HTTP

let BASE = ''

/** One request; counts it, times it, and returns { status, body } or { error }. */
async function call(method, path, { key, body, timeout = 10_000 } = {}) {
  const headers = {}
  if (key) headers.Authorization = `ApiKey ${key}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const started = performance.now()
  requests++
  try {
    const res = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    })
    const text = await res.text()
    if (key !== CHAOS_KEY) latencies.push(performance.now() - started)
    count(key, res.status)
    let parsed
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = text
    }
    return { status: res.status, body: parsed }
  } catch (error) {
    count(key, 'network error')
    return { status: 0, error: error.cause?.code ?? error.name ?? String(error) }
  }
}

/** A call whose status must be one of `expected`; anything else is a failure. */
async function expectStatus(who, method, path, expected, options) {
  const res = await call(method, path, options)
  if (!expected.includes(res.status))
    fail(
      `${who}: ${method} ${path} answered ${res.status || res.error}, expected ${expected.join('|')}` +
        ` ${JSON.stringify(res.body ?? '').slice(0, 200)}`
    )
  return res
}

// ---------------------------------------------------------------------------------------------
// A client: one key, a model of what the server acknowledged

class Client {
  constructor(index) {
    this.key = `soak-client-${index}`
    this.name = `client ${index}`
    this.gate = undefined
    this.created = 0
    this.topicCount = undefined
    this.done = false
  }

  /** Re-reads the environment: after a reset it is the scenario's data again. */
  async sync() {
    const groups = await expectStatus(this.name, 'GET', '/v1/notification-groups', [200], {
      key: this.key,
    })
    const workflows = await expectStatus(this.name, 'GET', '/v1/workflows?limit=100', [200], {
      key: this.key,
    })
    const messages = await expectStatus(this.name, 'GET', '/v1/messages?limit=1000', [200], {
      key: this.key,
    })
    this.groups = new Map((groups.body?.data ?? []).map((g) => [g._id, { name: g.name }]))
    this.deletedGroups = new Set()
    this.workflows = new Map((workflows.body?.data ?? []).map((w) => [w._id, w.active]))
    this.transactions = new Set((messages.body?.data ?? []).map((m) => m.transactionId))
    this.deletedTransactions = new Set()
    this.created = 0
  }

  /**
   * Asks the client to stop between two requests; resolves with a function that lets it go on
   * (it then re-reads its state), or with undefined when the client has already finished.
   */
  async pause() {
    if (this.done) return undefined
    let idle
    let resume
    const paused = new Promise((resolve) => (idle = resolve))
    const resumed = new Promise((resolve) => (resume = resolve))
    this.gate = { idle, resumed }
    await paused
    return resume
  }

  async run(until) {
    await this.sync()
    while (Date.now() < until) {
      if (this.gate) {
        const { idle, resumed } = this.gate
        idle()
        await resumed
        this.gate = undefined
        await this.sync()
        continue
      }
      await pickOne(this.operations())()
    }
    // A pause that came in with the last request: go through it, so the model matches the reset.
    this.done = true
    if (this.gate) {
      const { idle, resumed } = this.gate
      idle()
      await resumed
      this.gate = undefined
      await this.sync()
    }
  }

  operations() {
    const ops = [
      () => this.createGroup(),
      () => this.createWorkflow(),
      () => this.toggleStatus(),
      () => this.toggleStatus(),
      () => this.listTopics(),
      () => this.listTopics(),
      () => this.deleteTransaction(),
      () => this.listAll(),
      () => this.readBack(),
    ]
    if (this.groups.size > 2) ops.push(() => this.deleteGroup())
    return ops
  }

  async createGroup() {
    const name = `Group ${Math.random().toString(36).slice(2, 8)}`
    const res = await expectStatus(this.name, 'POST', '/v1/notification-groups', [201], {
      key: this.key,
      body: { name },
    })
    if (res.status !== 201) return
    this.groups.set(res.body.data._id, { name })
    this.created++
  }

  async deleteGroup() {
    const id = pickOne([...this.groups.keys()].filter((g) => g !== GENERAL_GROUP))
    if (!id) return
    const res = await expectStatus(this.name, 'DELETE', `/v1/notification-groups/${id}`, [200], {
      key: this.key,
    })
    if (res.status !== 200) return
    this.groups.delete(id)
    this.deletedGroups.add(id)
    // A second delete of the same group is a 404 (facts §2.3).
    if (Math.random() < 0.2)
      await expectStatus(this.name, 'DELETE', `/v1/notification-groups/${id}`, [404], {
        key: this.key,
      })
  }

  async createWorkflow() {
    const active = Math.random() < 0.5
    const res = await expectStatus(this.name, 'POST', '/v1/workflows', [201], {
      key: this.key,
      body: {
        name: `Soak ${Math.random().toString(36).slice(2, 6)}`,
        notificationGroupId: GENERAL_GROUP,
        active,
        steps: [{ name: 'In-App', template: { type: 'in_app', content: 'Hi {{firstName}}' } }],
      },
    })
    if (res.status !== 201) return
    if (res.body.data.active !== active) fail(`${this.name}: created workflow active is wrong`)
    this.workflows.set(res.body.data._id, active)
    this.created++
  }

  async toggleStatus() {
    const id = pickOne([...this.workflows.keys()])
    if (!id) return
    const current = this.workflows.get(id)
    // Now and then the same status again, which upstream refuses with a 400.
    const same = Math.random() < 0.1
    const res = await expectStatus(
      this.name,
      'PUT',
      `/v1/workflows/${id}/status`,
      same ? [400] : [200],
      { key: this.key, body: { active: same ? current : !current } }
    )
    if (res.status === 200) {
      this.workflows.set(id, !current)
      if (res.body.data.active !== !current || res.body.data.draft !== current)
        fail(`${this.name}: status of ${id} answered active ${res.body.data.active}`)
    }
  }

  async listTopics() {
    const page = Math.floor(Math.random() * 4)
    const res = await expectStatus(this.name, 'GET', `/v1/topics?page=${page}&pageSize=10`, [200], {
      key: this.key,
    })
    if (res.status !== 200) return
    this.topicCount ??= res.body.totalCount
    if (res.body.totalCount !== this.topicCount)
      fail(`${this.name}: topics totalCount went from ${this.topicCount} to ${res.body.totalCount}`)
  }

  async deleteTransaction() {
    const live = [...this.transactions]
    const gone = [...this.deletedTransactions]
    const again = gone.length > 0 && (live.length === 0 || Math.random() < 0.2)
    const id = again ? pickOne(gone) : pickOne(live)
    if (!id) return
    const channel = Math.random() < 0.3 ? `?channel=${pickOne(CHANNELS)}` : ''
    const path = `/v1/messages/transaction/${encodeURIComponent(id)}${channel}`
    const res = await expectStatus(this.name, 'DELETE', path, again ? [404] : [204], {
      key: this.key,
    })
    if (res.status !== 204) return
    // A channel delete empties the transaction only when no other channel is left.
    const left = channel
      ? await expectStatus(
          this.name,
          'GET',
          `/v1/messages?limit=1000&transactionId=${encodeURIComponent(id)}`,
          [200],
          { key: this.key }
        )
      : undefined
    if (!channel || left?.body?.data?.length === 0) {
      this.transactions.delete(id)
      this.deletedTransactions.add(id)
    }
  }

  async listAll() {
    const key = this.key
    const groups = await expectStatus(this.name, 'GET', '/v1/notification-groups', [200], { key })
    const listed = new Set((groups.body?.data ?? []).map((g) => g._id))
    for (const id of this.groups.keys())
      if (!listed.has(id)) fail(`${this.name}: group ${id} missing from the list`)
    for (const id of this.deletedGroups)
      if (listed.has(id)) fail(`${this.name}: deleted group ${id} still listed`)
    await expectStatus(this.name, 'GET', '/v1/workflows?limit=20', [200], { key })
    await expectStatus(this.name, 'GET', '/v1/messages?limit=50', [200], { key })
  }

  async readBack() {
    const id = pickOne([...this.workflows.keys()])
    if (!id) return
    const res = await expectStatus(this.name, 'GET', `/v1/workflows/${id}`, [200], {
      key: this.key,
    })
    if (res.status === 200 && res.body.data.active !== this.workflows.get(id))
      fail(`${this.name}: workflow ${id} reads active ${res.body.data.active}`)
  }

  /** Every acknowledged write is readable: groups and workflows with their state, deletes gone. */
  async verify() {
    const key = this.key
    for (const [id, { name }] of this.groups) {
      const res = await expectStatus(this.name, 'GET', `/v1/notification-groups/${id}`, [200], {
        key,
      })
      if (res.status === 200 && res.body.data.name !== name)
        fail(`${this.name}: group ${id} is named ${res.body.data.name}, not ${name}`)
    }
    for (const id of this.deletedGroups)
      await expectStatus(this.name, 'GET', `/v1/notification-groups/${id}`, [404], { key })
    for (const [id, active] of this.workflows) {
      const res = await expectStatus(this.name, 'GET', `/v1/workflows/${id}`, [200], { key })
      if (res.status === 200 && res.body.data.active !== active)
        fail(`${this.name}: workflow ${id} is active ${res.body.data.active}, expected ${active}`)
    }
    for (const id of this.deletedTransactions) {
      const path = `/v1/messages?limit=1000&transactionId=${encodeURIComponent(id)}`
      const res = await expectStatus(this.name, 'GET', path, [200], { key })
      if (res.status === 200 && res.body.data.length > 0)
        fail(`${this.name}: transaction ${id} still has ${res.body.data.length} messages`)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The chaos key: anything goes, but nothing may leak to the other keys

async function chaosClient(until) {
  const paths = ['/v1/topics', '/v1/workflows', '/v1/notification-groups', '/v1/messages']
  while (Date.now() < until) {
    if (Math.random() < 0.2)
      await call('POST', '/v1/notification-groups', {
        key: CHAOS_KEY,
        body: { name: 'chaos' },
        timeout: 3000,
      })
    else await call('GET', pickOne(paths), { key: CHAOS_KEY, timeout: 3000 })
  }
}

const CHAOS_FAULTS = [
  { fault: { status: 503 } },
  { fault: { status: 500, body: { chaos: true } } },
  { fault: { status: 429, headers: { 'Retry-After': '1' } } },
  { delay: { distribution: 'uniform', min: 5, max: 50 } },
  { fault: { network: 'reset' } },
  { fault: { network: 'empty' } },
  { fault: { network: 'malformed' } },
  { fault: { network: 'slow-body', chunkBytes: 256, intervalMs: 5 } },
  { sequence: [{ status: 502 }, { pass: true }], probability: 0.5 },
]

async function chaosLoop(until) {
  const live = []
  let changes = 0
  while (Date.now() < until) {
    await sleep(CHAOS_MS)
    const rule = { match: { apiKey: CHAOS_KEY, path: '/v1/*' }, ...pickOne(CHAOS_FAULTS) }
    const added = await expectStatus('admin', 'POST', '/__admin/rules', [201], { body: rule })
    if (added.status === 201) live.push(added.body.data.id)
    // A sequence rule expires once used, so a later delete may find it gone.
    if (live.length > 3)
      await expectStatus('admin', 'DELETE', `/__admin/rules/${live.shift()}`, [200, 404])
    // The chaos key has no model to keep: its environment is reset often so that it stays small.
    if (++changes % 10 === 0)
      await expectStatus('admin', 'POST', `/__admin/reset?apiKey=${CHAOS_KEY}`, [200])
  }
  for (const id of live) await expectStatus('admin', 'DELETE', `/__admin/rules/${id}`, [200, 404])
}

async function journalLoop(until) {
  while (Date.now() < until) {
    await sleep(500)
    const path = pickOne([
      '/__admin/requests?limit=20',
      '/__admin/requests?status=5xx&limit=5',
      `/__admin/requests/count?apiKey=${CHAOS_KEY}`,
      '/__admin/requests/export?limit=20',
      '/__admin/requests?path=/v1/workflows/:id/status&limit=5',
    ])
    await expectStatus('admin', 'GET', path, [200])
  }
}

async function resetLoop(clients, until) {
  let resets = 0
  while (Date.now() < until) {
    await sleep(RESET_MS)
    if (Date.now() >= until) break
    // The fuller an environment, the likelier its reset, so that none grows without end.
    const weights = clients.map((c) => 1 + c.created)
    let roll = Math.random() * weights.reduce((a, b) => a + b, 0)
    const client = clients.find((_, i) => (roll -= weights[i]) < 0) ?? clients[0]
    const resume = await client.pause()
    if (!resume) continue
    // Before the reset, the server must still hold exactly what the client saw acknowledged.
    await client.verify()
    await expectStatus(
      'admin',
      'POST',
      `/__admin/reset?apiKey=${encodeURIComponent(client.key)}`,
      [200]
    )
    resets++
    resume()
  }
  return resets
}

// ---------------------------------------------------------------------------------------------
// Shutdown: SIGTERM with requests in flight

async function shutdown(mock) {
  // Slow requests on the chaos key (a 600 ms delay) are in flight when the signal lands.
  await expectStatus('admin', 'POST', '/__admin/rules', [201], {
    body: { match: { apiKey: CHAOS_KEY }, delay: 600 },
  })
  const inFlight = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? call('GET', '/v1/topics', { key: CHAOS_KEY })
      : call('GET', '/v1/workflows', { key: `soak-client-${i % CLIENTS}` })
  )
  await sleep(150)
  const signalled = performance.now()
  mock.child.kill('SIGTERM')
  const answers = await Promise.all(inFlight)
  const { code, signal } = await mock.exited
  const lost = answers.filter((a) => a.status !== 200)
  if (lost.length)
    fail(
      `shutdown: ${lost.length} of ${answers.length} in-flight requests got no 200: ${lost.map((a) => a.status || a.error).join(', ')}`
    )
  if (code !== 0) fail(`shutdown: exit code ${code} (signal ${signal})`)
  return {
    inFlight: answers.length,
    lost: lost.length,
    exitCode: code,
    exitMs: Math.round(performance.now() - signalled),
  }
}

// ---------------------------------------------------------------------------------------------

function percentile(sorted, p) {
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
    : NaN
}

function memoryVerdict(samples) {
  const third = Math.floor(samples.length / 3)
  if (third < 1) return { ok: true, note: 'too few samples to judge' }
  const first = Math.max(...samples.slice(0, third))
  const last = Math.max(...samples.slice(-third))
  const ok = last <= first * RSS_GROWTH_LIMIT
  return {
    ok,
    first,
    last,
    note: `last third max / first third max = ${(last / first).toFixed(2)}`,
  }
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)

async function main() {
  const mock = startChild()
  BASE = await mock.url
  const started = Date.now()
  const until = started + SECONDS * 1000
  const rss = [rssOf(mock.child.pid)]
  const sampler = setInterval(() => {
    try {
      rss.push(rssOf(mock.child.pid))
    } catch {
      // The child is gone; its exit is reported below.
    }
  }, SAMPLE_MS)
  let stopping = false
  let crashed = false
  mock.exited.then(() => (crashed = !stopping))

  console.log(
    `soak: ${SECONDS} s, ${CLIENTS} clients + 1 chaos client, mock at ${BASE} (pid ${mock.child.pid})`
  )
  const progress = setInterval(() => {
    const at = Math.round((Date.now() - started) / 1000)
    console.log(
      `  ${at} s: ${requests} requests, RSS ${mb(rss.at(-1))} MB, ${failures.length} failures`
    )
  }, 60_000)
  // Nothing may hang: a stuck loop or a mock that stops answering fails the run.
  const watchdog = setTimeout(
    () => {
      console.error('FAIL the soak did not finish within 3 minutes of its end: something hangs')
      mock.child.kill('SIGKILL')
      process.exit(1)
    },
    (SECONDS + 180) * 1000
  )
  const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i))
  const [resets] = await Promise.all([
    resetLoop(clients, until),
    chaosLoop(until),
    journalLoop(until),
    chaosClient(until),
    ...clients.map((c) => c.run(until)),
  ])
  const elapsed = (Date.now() - started) / 1000
  clearInterval(sampler)
  clearInterval(progress)
  if (crashed) fail(`the mock exited during the run: ${mock.stderr().slice(0, 500)}`)

  const loadRequests = requests
  for (const client of clients) await client.verify()
  const memory = memoryVerdict(rss)
  if (!memory.ok) fail(`memory kept growing: ${memory.note}`)
  stopping = true
  const exit = crashed ? undefined : await shutdown(mock)

  const sorted = latencies.slice().sort((a, b) => a - b)
  console.log('\nsummary')
  console.table({
    duration: `${elapsed.toFixed(1)} s`,
    requests: loadRequests,
    'requests/s': Math.round(loadRequests / elapsed),
    'p50 latency (client keys, admin)': `${percentile(sorted, 50).toFixed(2)} ms`,
    'p99 latency (client keys, admin)': `${percentile(sorted, 99).toFixed(2)} ms`,
    'max latency (client keys, admin)': `${sorted.at(-1)?.toFixed(1)} ms`,
    'environment resets': resets,
    'RSS first third max': `${mb(memory.first ?? NaN)} MB`,
    'RSS last third max': `${mb(memory.last ?? NaN)} MB`,
    memory: memory.note,
    'SIGTERM in flight / lost': exit ? `${exit.inFlight} / ${exit.lost}` : 'crashed',
    'exit code / time': exit ? `${exit.exitCode} / ${exit.exitMs} ms` : '-',
    result: failures.length ? `FAIL (${failures.length})` : 'PASS',
  })
  console.log('status counts (all keys; 5xx and network errors expected only on the chaos key):')
  console.table(
    Object.fromEntries([...statusCounts].sort(([a], [b]) => String(a).localeCompare(String(b))))
  )
  const step = Math.max(1, Math.round(rss.length / 40))
  const shown = rss.filter((_, i) => i % step === 0 || i === rss.length - 1)
  console.log(`RSS series (MB, every ${(SAMPLE_MS * step) / 1000} s): ${shown.map(mb).join(' ')}`)
  if (failures.length) {
    console.log(`\n${failures.length} failure(s); the first ones:`)
    for (const f of failures.slice(0, 20)) console.log(`  - ${f}`)
  }
  clearTimeout(watchdog)
  process.exit(failures.length ? 1 : 0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
