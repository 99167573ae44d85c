import { connect } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

/** Sends raw bytes and resolves with everything the server answered before it closed. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1', () => socket.write(request))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

test('listens on loopback by default', () => {
  expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
})

test('headers over the size limit answer 431 in the error shape', async () => {
  const answer = await raw(
    `GET /v1/topics HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
  )
  expect(answer).toMatch(/^HTTP\/1\.1 431 /)
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
  expect(body).toMatchObject({
    statusCode: 431,
    path: '/',
    message: 'Request Header Fields Too Large',
  })
})

test('a URL over the size limit answers 431 in the error shape', async () => {
  const res = await fetch(`${mock.url}/v1/topics?key=${'k'.repeat(20_000)}`, {
    headers: { Authorization: 'ApiKey long-url' },
  })
  expect(res.status).toBe(431)
  expect(await res.json()).toMatchObject({
    statusCode: 431,
    error: 'Request Header Fields Too Large',
  })
})

test('malformed HTTP answers 400 in the error shape', async () => {
  const answer = await raw('NOT HTTP AT ALL\r\n\r\n')
  expect(answer).toMatch(/^HTTP\/1\.1 400 /)
  expect(answer).toContain('"statusCode":400')
})

test('the server has header, request and keep-alive timeouts', () => {
  expect(mock.server).toMatchObject({
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
  })
})

test('close resolves and a second close does nothing', async () => {
  const other = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  await other.close()
  await expect(other.close()).resolves.toBeUndefined()
})
