// Requests at the edges of HTTP/1.1, over raw sockets: pipelining, request-targets Node accepts
// but URL parsing mangles, CONNECT. Every request gets exactly one answer, in order.
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'

const AUTH = 'Authorization: ApiKey http-edges'
const TOPICS = `GET /v1/topics?pageSize=1 HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n\r\n`
const GARBAGE = 'NOT HTTP AT ALL\r\n\r\n'
const started: RunningMock[] = []

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()))
})

async function mock() {
  const running = await startMock({ port: 0, logLevel: 'silent' })
  started.push(running)
  return running
}

/** Everything the server sends back for `bytes`, until it closes the connection. */
function exchange(running: RunningMock, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1', () => socket.write(bytes, 'latin1'))
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => resolve(text))
    // Generous: only a server that never closes gets here, and the test then fails on its answers.
    setTimeout(() => socket.destroy(), 10_000).unref()
  })
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Splits a byte stream into responses; `heads` marks the answers to HEAD, which have no body. */
function answers(stream: string, heads: number[] = []): Answer[] {
  const out: Answer[] = []
  let rest = stream
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n')
    if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(rest)}`)
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = heads.includes(out.length) ? 0 : Number(headers['content-length'] ?? 0)
    const body = rest.slice(end + 4, end + 4 + length)
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body })
    rest = rest.slice(end + 4 + length)
  }
  return out
}

const json = (answer: Answer | undefined) =>
  JSON.parse(answer?.body ?? '') as Record<string, unknown>

function expectErrorShape(answer: Answer | undefined, status: number, message: string) {
  expect(answer?.status).toBe(status)
  expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(json(answer)).toMatchObject({ statusCode: status, message })
}

async function journal(running: RunningMock, query: string) {
  const res = await fetch(`${running.url}/__admin/requests?${query}`)
  return ((await res.json()) as { data: { method: string; status: number }[] }).data
}

test('requests pipelined before a malformed one are answered, in order, before its 400', async () => {
  const running = await mock()
  const got = answers(await exchange(running, TOPICS + TOPICS + GARBAGE))
  expect(got.map((a) => a.status)).toEqual([200, 200, 400])
  expect(json(got[0])).toMatchObject({ pageSize: 1 })
  expectErrorShape(got[2], 400, 'Bad Request')
})

test('a slow response pipelined before a malformed request still comes first', async () => {
  const running = await mock()
  await running.admin.addRule({ match: { path: '/v1/topics' }, delay: 300 })
  const got = answers(await exchange(running, TOPICS + GARBAGE))
  expect(got.map((a) => a.status)).toEqual([200, 400])
})

test('a request-target Node refuses, pipelined after a valid request, gets one 400 after it', async () => {
  const running = await mock()
  const backslashed = `GET \\v1\\topics HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n\r\n`
  const got = answers(await exchange(running, TOPICS + backslashed))
  expect(got.map((a) => a.status)).toEqual([200, 400])
  expectErrorShape(got[1], 400, 'Bad Request')
})

test('a backslash in the path is an unknown route, echoed as sent and journaled', async () => {
  const running = await mock()
  const request = `GET /v1\\topics HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nConnection: close\r\n\r\n`
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expectErrorShape(got[0], 404, 'Cannot GET /v1\\topics')
  expect(json(got[0]).path).toBe('/v1\\topics')
  expect(await journal(running, 'status=404')).toHaveLength(1)
})

test('an absolute URL with an upper-case scheme is served like its lower-case form', async () => {
  const running = await mock()
  const request = `GET HTTP://X/v1/topics?pageSize=1 HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nConnection: close\r\n\r\n`
  const got = answers(await exchange(running, request))
  expect(got.map((a) => a.status)).toEqual([200])
  expect(json(got[0])).toMatchObject({ pageSize: 1 })
})

test('an absolute URL that does not parse is an unknown route in the error shape', async () => {
  const running = await mock()
  const request = `GET http://[bad/v1/topics HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nConnection: close\r\n\r\n`
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expectErrorShape(got[0], 404, 'Cannot GET http://[bad/v1/topics')
})

test('HEAD * gets exactly one 404, with a JSON content type and no body, and is journaled', async () => {
  const running = await mock()
  const got = answers(
    await exchange(running, TOPICS + 'HEAD * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    [1]
  )
  expect(got.map((a) => a.status)).toEqual([200, 404])
  expect(got[1]?.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(await journal(running, 'method=HEAD')).toMatchObject([{ method: 'HEAD', status: 404 }])
})

test('OPTIONS * is answered as Express answers an unknown route', async () => {
  const running = await mock()
  const request = 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expectErrorShape(got[0], 404, 'Cannot OPTIONS *')
  expect(await journal(running, 'method=OPTIONS')).toHaveLength(1)
})

test('CONNECT is answered with a 404 in the error shape, then the connection closes', async () => {
  const running = await mock()
  const request = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expectErrorShape(got[0], 404, 'Cannot CONNECT example.com:443')
  expect(got[0]?.headers.connection).toBe('close')
})

test('a CONNECT pipelined after a valid request is answered after it', async () => {
  const running = await mock()
  const connectRequest = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'
  const got = answers(await exchange(running, TOPICS + connectRequest))
  expect(got.map((a) => a.status)).toEqual([200, 404])
})

test('a chunked body that breaks off into garbage gets one 400', async () => {
  const running = await mock()
  const request =
    `POST /v1/notification-groups HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n` +
    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nZZZ\r\n\r\n'
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expectErrorShape(got[0], 400, 'Bad Request')
})

test('a request the app answers before its body breaks off into garbage gets one answer', async () => {
  const running = await mock()
  // No JSON content type: the unknown route answers without reading the body.
  const request =
    'POST /nope HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nZZZ\r\n\r\n'
  const got = answers(await exchange(running, request))
  expect(got).toHaveLength(1)
  expect(json(got[0]).statusCode).toBe(got[0]?.status)
})

test('the server answers normally after refusing malformed and CONNECT requests', async () => {
  const running = await mock()
  await exchange(running, TOPICS + GARBAGE)
  await exchange(running, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
  const res = await fetch(`${running.url}/v1/topics`, { headers: { Authorization: 'ApiKey x' } })
  expect(res.status).toBe(200)
})
