// Slow and broken clients against a real socket: none of them may hold up or harm the others.
// "Not held up" is shown by the order of events (the other answer arrives while the slow clients
// are still open), never by a clock: speed is the benchmarks' business.
import { connect, type Socket } from 'node:net'
import type { Server } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { createLogger } from '../src/log.js'
import { startMock, type RunningMock } from '../src/server.js'

const AUTH = 'ApiKey slow-clients'
const opened: Socket[] = []
const started: RunningMock[] = []

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy()
  await Promise.all(started.splice(0).map((mock) => mock.close()))
})

/** A mock on a free port, its error log captured. */
async function mockWithLog() {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  started.push(mock)
  const errors: string[] = []
  mock.state.logger = createLogger('error', (line) => errors.push(line) > 0)
  return { mock, errors }
}

function open(mock: RunningMock): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1', () => resolve(socket))
    socket.on('error', reject)
    opened.push(socket)
  })
}

/** Everything the server sends on this socket until it closes it or `ms` pass. */
function received(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const done = () => resolve(text)
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
    socket.on('close', done)
    setTimeout(done, ms).unref()
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How many of the sockets the server has closed or ended so far. */
function closedCount(sockets: Socket[]): () => number {
  let closed = 0
  for (const socket of sockets) {
    let counted = false
    const count = () => void (counted || ((counted = true), closed++))
    socket.once('end', count)
    socket.once('close', count)
  }
  return () => closed
}

const topics = (mock: RunningMock) =>
  fetch(`${mock.url}/v1/topics`, { headers: { Authorization: AUTH } }).then((r) => r.status)

// Connection: close, so that the server ends the socket once it has answered.
const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

// A server that held the other request behind the slow one would wait for a body that comes
// only after the other answer: the test's timeout, not a clock, is what fails it then.
test('a client that sends its body a byte every 100 ms is still sending it when another client is answered', async () => {
  const { mock } = await mockWithLog()
  const body = '{"name":"Slow group"}'
  const slow = await open(mock)
  const answer = received(slow, 10_000)
  slow.write(head('/v1/notification-groups', body.length))
  const dripping = (async () => {
    for (const byte of body.slice(0, -1)) {
      slow.write(byte)
      await sleep(100)
    }
  })()
  await sleep(150)
  expect(await topics(mock)).toBe(200)
  let slowAnswered = false
  void answer.then(() => (slowAnswered = true))
  await dripping
  expect(slowAnswered).toBe(false)
  slow.write(body.slice(-1))
  expect(await answer).toMatch(/^HTTP\/1\.1 201 /)
}, 15_000)

test('a client that leaves halfway through its body leaves the server healthy and quiet', async () => {
  const { mock, errors } = await mockWithLog()
  const socket = await open(mock)
  socket.write(head('/v1/notification-groups', 1_000) + '{"name":"' + 'x'.repeat(400))
  await sleep(100)
  socket.destroy()
  await sleep(100)
  expect(await topics(mock)).toBe(200)
  const groups = await fetch(`${mock.url}/v1/notification-groups`, {
    headers: { Authorization: AUTH },
  }).then((r) => r.json() as Promise<{ data: { name: string }[] }>)
  expect(groups.data.map((g) => g.name)).not.toContain('x'.repeat(400))
  // A client that hangs up is not a server error.
  expect(errors).toEqual([])
})

test('a client that leaves in the middle of a slow response leaves the server healthy and quiet', async () => {
  const { mock, errors } = await mockWithLog()
  await mock.admin.addRule({
    match: { path: '/v1/workflows' },
    fault: { network: 'slow-body', chunkBytes: 64, intervalMs: 20 },
  })
  const socket = await open(mock)
  const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()))
  socket.write(`GET /v1/workflows HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`)
  await firstBytes
  socket.destroy()
  await sleep(200)
  expect(await topics(mock)).toBe(200)
  expect(errors).toEqual([])
})

test('a client that leaves during a chaos delay is journalled as 499 and leaves the server healthy', async () => {
  const { mock, errors } = await mockWithLog()
  await mock.admin.addRule({ match: { path: '/v1/topics' }, delay: 2_000 })
  const socket = await open(mock)
  socket.write(`GET /v1/topics HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`)
  await sleep(100)
  socket.destroy()
  await sleep(200)
  const health = await fetch(`${mock.url}/__admin/health`)
  expect(health.status).toBe(200)
  const journal = await fetch(`${mock.url}/__admin/requests?path=/v1/topics`).then(
    (r) => r.json() as Promise<{ data: { status: number }[] }>
  )
  expect(journal.data[0]?.status).toBe(499)
  expect(errors).toEqual([])
})

// A server that waited for them to time out would answer only after closing them.
test('a new request is answered while 200 connections that never send a byte are still open', async () => {
  const { mock } = await mockWithLog()
  const idle = await Promise.all(Array.from({ length: 200 }, () => open(mock)))
  const closed = closedCount(idle)
  expect(await topics(mock)).toBe(200)
  expect(closed()).toBe(0)
})

test('a new request is answered while 200 idle keep-alive connections are still open', async () => {
  const { mock } = await mockWithLog()
  const sockets = await Promise.all(Array.from({ length: 200 }, () => open(mock)))
  await Promise.all(
    sockets.map(async (socket) => {
      const answered = new Promise((resolve) => socket.once('data', resolve))
      socket.write('GET /__admin/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n')
      await answered
    })
  )
  const closed = closedCount(sockets)
  expect(await topics(mock)).toBe(200)
  expect(closed()).toBe(0)
})

test('reports the server timeouts that guard against slow clients', async () => {
  const { mock } = await mockWithLog()
  const server = mock.server as Server
  const timeouts = {
    headersTimeout: server.headersTimeout,
    requestTimeout: server.requestTimeout,
    keepAliveTimeout: server.keepAliveTimeout,
  }
  // Node 20's defaults are 60 s, 300 s and 5 s: a value other than those was set on purpose.
  console.info('novu-mock server timeouts (ms):', timeouts)
  for (const value of Object.values(timeouts)) expect(value).toBeGreaterThan(0)
})
