// ADMIN_TOKEN outside ASCII: clients put its UTF-8 bytes on the wire, Node reads them as latin1.
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createMock } from '../mock.js'
import { startMock, type RunningMock } from '../server.js'

const TOKEN = 'jeton-sécurité-令牌'
const started: RunningMock[] = []

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()))
})

async function mock() {
  const running = await startMock({ port: 0, logLevel: 'silent', adminToken: TOKEN })
  started.push(running)
  return running
}

/** The status of an admin request whose Authorization header carries `tokenBytes` as they are. */
function statusOverSocket(running: RunningMock, tokenBytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1', () =>
      socket.write(
        Buffer.concat([
          Buffer.from('GET /__admin/rules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer '),
          tokenBytes,
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ])
      )
    )
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(text.split(' ')[1])))
  })
}

test('a non-ASCII admin token sent as its UTF-8 bytes over a socket is accepted', async () => {
  const running = await mock()
  expect(await statusOverSocket(running, Buffer.from(TOKEN, 'utf8'))).toBe(200)
})

test('a different non-ASCII token over a socket is refused with 401', async () => {
  const running = await mock()
  expect(await statusOverSocket(running, Buffer.from('jeton-sécurité-令X', 'utf8'))).toBe(401)
})

test('the token encoded as latin1 rather than UTF-8 is refused', async () => {
  const running = await mock()
  expect(await statusOverSocket(running, Buffer.from(TOKEN, 'latin1'))).toBe(401)
})

test('fetch sending the UTF-8 bytes of a non-ASCII token is accepted', async () => {
  const running = await mock()
  const header = `Bearer ${Buffer.from(TOKEN, 'utf8').toString('latin1')}`
  const res = await fetch(`${running.url}/__admin/rules`, { headers: { authorization: header } })
  expect(res.status).toBe(200)
})

test('fetch sending a latin1-only token as its string is accepted', async () => {
  const running = await startMock({ port: 0, logLevel: 'silent', adminToken: 'tökén' })
  started.push(running)
  const res = await fetch(`${running.url}/__admin/rules`, {
    headers: { authorization: 'Bearer tökén' },
  })
  expect(res.status).toBe(200)
})

test('the admin client of a started mock with a non-ASCII token can call it', async () => {
  const running = await mock()
  await expect(running.admin.rules()).resolves.toBeDefined()
})

test('app.request with the non-ASCII token as a string is accepted', async () => {
  const { app } = createMock({ adminToken: 'jeton-sécurité' })
  const res = await app.request('/__admin/rules', {
    headers: { authorization: 'Bearer jeton-sécurité' },
  })
  expect(res.status).toBe(200)
})
