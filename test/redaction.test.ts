// Issue #9, finding 7: an API key, however it is sent, never shows in full in the journal, its
// replay export or the log.
import { afterEach, expect, test } from 'vitest'
import { createLogger } from '../src/log.js'
import { createMock } from '../src/mock.js'
import { startMock, type RunningMock } from '../src/server.js'
import { request } from './helpers.js'

const SECRET = 'sk-live-0123456789abcdef0123456789abcdef'

const mock = () => createMock({ seed: 'redaction', logLevel: 'silent' })

/** Everything the journal shows: its entries and its export in both formats. */
async function journalText(app: ReturnType<typeof mock>['app']): Promise<string> {
  const reads = [
    '/__admin/requests',
    '/__admin/requests/export',
    '/__admin/requests/export?format=yaml',
  ]
  const texts = await Promise.all(reads.map(async (path) => (await request(app, 'GET', path)).text))
  return texts.join('\n')
}

let running: RunningMock | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

test.each([
  ['X-Api-Key', SECRET],
  ['Api-Key', SECRET],
  ['Cookie', `session=${SECRET}; theme=dark`],
  ['Set-Cookie', `session=${SECRET}; Path=/; HttpOnly`],
  ['Proxy-Authorization', `Bearer ${SECRET}`],
])('a key sent in %s never shows in full in the journal or its export', async (name, value) => {
  const { app } = mock()
  await request(app, 'GET', '/v1/topics', { headers: { [name]: value } })
  const shown = await journalText(app)
  expect(shown).toContain(name.toLowerCase())
  expect(shown).not.toContain(SECRET)
})

test('a cookie keeps its name and its harmless neighbours readable in the journal', async () => {
  const { app } = mock()
  await request(app, 'GET', '/v1/topics', { headers: { Cookie: `session=${SECRET}; theme=dark` } })
  const { body } = await request(app, 'GET', '/__admin/requests')
  expect(body.data[0].headers.cookie).toMatch(/^session=sk-l…ef; theme=da…$/)
})

test.each(['apiKey', 'api_key', 'key', 'token', 'access_token'])(
  'a key sent as ?%s= never shows in full in the journal or its export',
  async (name) => {
    const { app } = mock()
    await request(app, 'GET', `/v1/workflows?${name}=${SECRET}&page=0`)
    const shown = await journalText(app)
    expect(shown).toContain(name)
    expect(shown).not.toContain(SECRET)
  }
)

test('the journal keeps the topic key filter of GET /v1/topics, which is no secret', async () => {
  const { app } = mock()
  await request(app, 'GET', '/v1/topics?key=team-alpha')
  const { body } = await request(app, 'GET', '/__admin/requests')
  expect(body.data[0].query).toEqual({ key: 'team-alpha' })
})

test('the export says which secrets it left out or redacted', async () => {
  const { app } = mock()
  await request(app, 'GET', `/v1/workflows?token=${SECRET}`, { headers: { 'X-Api-Key': SECRET } })
  const { body } = await request(app, 'GET', '/__admin/requests/export')
  // steps[0] is the reset of the replay key every export starts with.
  expect(body.steps[1].description).toContain('token, x-api-key')
  expect(body.steps[1].request.headers?.['x-api-key']).toBeUndefined()
})

test('keys sent over a real socket never show in full in the journal or its export', async () => {
  running = await startMock({ port: 0, seed: 'redaction', logLevel: 'silent' })
  await fetch(`${running.url}/v1/topics?apiKey=${SECRET}`, {
    headers: { Authorization: `ApiKey ${SECRET}`, 'X-Api-Key': SECRET, Cookie: `s=${SECRET}` },
  }).then((res) => res.arrayBuffer())
  const shown = await journalText(running.app)
  expect(shown).toContain('x-api-key')
  expect(shown).not.toContain(SECRET)
})

test('the unexpected-error log line never holds an admin route’s apiKey in full', async () => {
  const lines: string[] = []
  const { app, state } = createMock({ seed: 'redaction', logLevel: 'silent' })
  state.logger = createLogger('debug', (line) => lines.push(line) > 0)
  // No admin route fails unexpectedly on purpose: this one stands in for a bug.
  app.get('/__admin/failing', () => {
    throw new Error('boom')
  })
  const res = await request(app, 'GET', `/__admin/failing?apiKey=${SECRET}&x=1`)
  expect(res.status).toBe(500)
  const logged = lines.join('')
  expect(logged).toContain('unexpected error')
  expect(logged).toContain('/__admin/failing?apiKey=sk-l…ef&x=1')
  expect(logged).not.toContain(SECRET)
})

test('the debug log never holds a key sent in a header or the query string in full', async () => {
  const lines: string[] = []
  const { app, state } = createMock({ seed: 'redaction', logLevel: 'silent' })
  state.logger = createLogger('debug', (line) => lines.push(line) > 0)
  await request(app, 'GET', `/v1/topics?apiKey=${SECRET}`, {
    key: SECRET,
    headers: { 'X-Api-Key': SECRET, Cookie: `s=${SECRET}` },
  })
  await request(app, 'POST', `/__admin/reset?apiKey=${SECRET}`, { key: null })
  expect(lines.length).toBeGreaterThan(0)
  expect(lines.join('')).not.toContain(SECRET)
})
