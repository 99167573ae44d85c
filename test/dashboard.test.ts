import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import { createWorkflow, email, sms, trigger } from './trigger-helpers.js'

const ORIGIN = 'http://localhost'
const TOKEN = 'dash-token-42'

interface EnvironmentList {
  data: { environmentId: string }[]
}

async function withEmail(options: Record<string, unknown> = {}) {
  const mock = createMock({ scenario: 'empty', ...options })
  const app = options.adminToken ? { request: mock.app.request.bind(mock.app) } : mock.app
  await createWorkflow(app, 'Hello', [
    email('Hi {{name}}', 'Body for {{name}}'),
    sms('SMS {{name}}'),
  ])
  await trigger(app, {
    name: 'hello',
    to: { subscriberId: 'ada', email: 'a@x.io', phone: '+1555' },
    payload: { name: 'Ada' },
  })
  const messages = await mock.admin.messages()
  return { mock, messages }
}

describe('without ADMIN_TOKEN', () => {
  test('the page is served with a Content-Security-Policy that allows only its own files', async () => {
    const { app } = createMock({ scenario: 'empty' })
    const res = await app.request('/__admin/ui')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const page = await res.text()
    expect(page).toContain('<script type="module" src="/__admin/ui/assets/dashboard.js">')
    expect(page).not.toMatch(/<script>|https?:\/\/(?!www\.w3)/)
  })

  test('serves its script and style sheet, and a 404 for any other name', async () => {
    const { app } = createMock({ scenario: 'empty' })
    const js = await app.request('/__admin/ui/assets/dashboard.js')
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await app.request('/__admin/ui/assets/dashboard.css')).status).toBe(200)
    expect((await app.request('/__admin/ui/assets/..%2Fpackage.json')).status).toBe(404)
    expect((await app.request('/__admin/ui/assets/other.js')).status).toBe(404)
  })

  test("an email's preview is its HTML under a sandboxing CSP that blocks every load", async () => {
    const { mock, messages } = await withEmail()
    const message = messages.find((m) => m.channel === 'email')
    const res = await mock.app.request(
      `/__admin/ui/preview/${String(message?._environmentId)}/${String(message?._id)}`
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none';/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.text()).toContain('Body for Ada')
  })

  test('a preview of a message that is not an email, or of none, is a 404', async () => {
    const { mock, messages } = await withEmail()
    const smsMessage = messages.find((m) => m.channel === 'sms')
    const env = String(smsMessage?._environmentId)
    expect(
      (await mock.app.request(`/__admin/ui/preview/${env}/${String(smsMessage?._id)}`)).status
    ).toBe(404)
    expect((await mock.app.request(`/__admin/ui/preview/${env}/nope`)).status).toBe(404)
    expect((await mock.app.request(`/__admin/ui/preview/${'0'.repeat(24)}/x`)).status).toBe(404)
  })

  test('lists environments with keys redacted, and resets one by its id', async () => {
    const { mock } = await withEmail()
    const list = (await (
      await mock.app.request('/__admin/ui/environments')
    ).json()) as EnvironmentList
    expect(list.data).toEqual([
      expect.objectContaining({
        apiKey: 'te…',
        generation: '2026-08',
        counts: { workflows: 1, subscribers: 1, topics: 0, messages: 2 },
      }),
    ])
    expect(JSON.stringify(list)).not.toContain('test-key')
    const id = list.data[0]?.environmentId
    const reset = await mock.app.request(`/__admin/ui/environments/${id}/reset`, { method: 'POST' })
    expect(reset.status).toBe(200)
    expect(await mock.admin.messages()).toEqual([])
  })

  test('exports and imports an environment by its id', async () => {
    const { mock } = await withEmail()
    const [env] = (
      (await (await mock.app.request('/__admin/ui/environments')).json()) as EnvironmentList
    ).data
    if (!env) throw new Error('no environment')
    const exported = await mock.app.request(`/__admin/ui/environments/${env.environmentId}/state`)
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-disposition')).toContain('attachment')
    const state = (await exported.json()) as { messages: unknown[] }
    expect(state.messages).toHaveLength(2)
    const imported = await mock.app.request(`/__admin/ui/environments/${env.environmentId}/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...state, messages: [] }),
    })
    expect(imported.status).toBe(200)
    expect(await mock.admin.messages()).toEqual([])
  })

  test('an environment id that is not held is a 404, one that is not an id is refused', async () => {
    const { app } = createMock({ scenario: 'empty' })
    const missing = await app.request(`/__admin/ui/environments/${'a'.repeat(24)}/reset`, {
      method: 'POST',
    })
    expect(missing.status).toBe(404)
    const bad = await app.request('/__admin/ui/environments/..%2F..%2Fetc/state')
    expect(bad.status).toBeGreaterThanOrEqual(400)
    expect(bad.status).toBeLessThan(500)
  })
})

describe('with ADMIN_TOKEN', () => {
  const mockWithToken = () => createMock({ scenario: 'empty', adminToken: TOKEN })
  const login = (app: ReturnType<typeof mockWithToken>['app'], token: string) =>
    app.request('/__admin/ui/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: JSON.stringify({ token }),
    })

  test('the page without the cookie is a 401 with the token form, and no data', async () => {
    const { app } = mockWithToken()
    const res = await app.request('/__admin/ui')
    expect(res.status).toBe(401)
    const page = await res.text()
    expect(page).toContain('<form id="login"')
    expect(page).not.toContain('id="app"')
    expect((await app.request('/__admin/ui/environments')).status).toBe(401)
    expect((await app.request('/__admin/messages')).status).toBe(401)
  })

  test('the wrong token gets no cookie', async () => {
    const { app } = mockWithToken()
    const res = await login(app, 'guess')
    expect(res.status).toBe(401)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  test('the token buys an HttpOnly, SameSite=Strict cookie that does not hold it', async () => {
    const { app } = mockWithToken()
    const res = await login(app, TOKEN)
    expect(res.status).toBe(204)
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^novu_mock_admin=[\w-]+; Path=\/__admin; HttpOnly; SameSite=Strict$/)
    expect(cookie).not.toContain(TOKEN)
  })

  test('the cookie opens the page and the admin reads', async () => {
    const { app } = mockWithToken()
    const cookie = (await login(app, TOKEN)).headers.get('set-cookie')?.split(';')[0] ?? ''
    expect((await app.request('/__admin/ui', { headers: { cookie } })).status).toBe(200)
    expect((await app.request('/__admin/rules', { headers: { cookie } })).status).toBe(200)
  })

  test("a write with the cookie needs the mock's own Origin", async () => {
    const { app } = mockWithToken()
    const cookie = (await login(app, TOKEN)).headers.get('set-cookie')?.split(';')[0] ?? ''
    const reset = (headers: Record<string, string>) =>
      app.request('/__admin/reset', { method: 'POST', headers: { cookie, ...headers } })
    expect((await reset({})).status).toBe(403)
    expect((await reset({ Origin: 'http://evil.example' })).status).toBe(403)
    expect((await reset({ Origin: ORIGIN })).status).toBe(200)
  })

  test('a write from a foreign origin is refused even with the Bearer token', async () => {
    const { app } = mockWithToken()
    const res = await app.request('/__admin/reset', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, Origin: 'http://evil.example' },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      message: 'Admin writes from another origin are refused',
    })
    const bare = await app.request('/__admin/reset', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    })
    expect(bare.status).toBe(200)
  })

  test('a forged cookie opens nothing', async () => {
    const { app } = mockWithToken()
    const res = await app.request('/__admin/rules', {
      headers: { cookie: `novu_mock_admin=${TOKEN}` },
    })
    expect(res.status).toBe(401)
  })
})

test('a v1 request with a dashboard cookie is unaffected by it', async () => {
  const { app } = createMock({ scenario: 'empty', adminToken: TOKEN })
  const res = await request(app, 'GET', '/v1/topics', { headers: { cookie: 'novu_mock_admin=x' } })
  expect(res.status).toBe(200)
})
