import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startMock, type RunningMock } from '../../src/server.js'
import { GENERAL_GROUP_ID } from '../trigger-helpers.js'
import { launch, shot } from './browser.js'

/** The page's document, inside page.evaluate (the project's types have no DOM). */
type PageDocument = {
  cookie: string
  querySelector(s: string): { getAttribute(n: string): string | null } | null
}

let browser: Browser
const mocks: RunningMock[] = []
const pages: Page[] = []

beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await Promise.all(pages.splice(0).map((p) => p.close()))
  await Promise.all(mocks.splice(0).map((m) => m.close()))
})

async function mock(options: Record<string, unknown> = {}) {
  const started = await startMock({ port: 0, logLevel: 'silent', scenario: 'empty', ...options })
  mocks.push(started)
  return started
}

async function open(url: string, width = 1280, height = 800) {
  const page = await browser.newPage({ viewport: { width, height } })
  pages.push(page)
  await page.goto(url)
  return page
}

const call = (
  m: RunningMock,
  method: string,
  path: string,
  body?: unknown,
  key = 'shop-key-0042'
) =>
  fetch(`${m.url}${path}`, {
    method,
    headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

/** An order workflow (email, in-app, SMS) and `count` triggers of it. */
async function orders(m: RunningMock, count: number, key?: string) {
  const created = await call(
    m,
    'POST',
    '/v1/workflows',
    {
      name: 'Order Shipped',
      notificationGroupId: GENERAL_GROUP_ID,
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Your order {{orderId}} has shipped',
            content: [
              {
                type: 'text',
                content:
                  '<h2>Good news, {{subscriber.firstName}}!</h2><p>Order <b>{{orderId}}</b> is on its way.</p>',
              },
              {
                type: 'button',
                content: 'Track your parcel',
                url: 'https://shop.example/track/{{orderId}}',
              },
            ],
          },
        },
        { template: { type: 'in_app', content: 'Order {{orderId}} shipped' } },
        {
          template: {
            type: 'sms',
            content: 'Order {{orderId}} shipped: https://shop.example/t/{{orderId}}',
          },
        },
      ],
    },
    key
  )
  expect(created.status).toBe(201)
  for (let i = 1; i <= count; i++) {
    const res = await call(
      m,
      'POST',
      '/v1/events/trigger',
      {
        name: 'order-shipped',
        to: {
          subscriberId: `customer-${i}`,
          firstName: ['Ada', 'Grace', 'Linus'][i % 3],
          email: `customer-${i}@example.com`,
          phone: '+15550100',
        },
        payload: { orderId: `A-${1000 + i}` },
        transactionId: `order-A-${1000 + i}`,
      },
      key
    )
    expect(res.status).toBe(201)
  }
}

test('the outbox shows a triggered email and its rendered preview', async () => {
  const m = await mock()
  await orders(m, 3)
  const page = await open(`${m.url}/__admin/ui#outbox`)
  const row = page.locator('#outbox-table tbody tr', { hasText: 'Your order A-1003 has shipped' })
  await row.click()
  const frame = page.frameLocator('iframe.preview')
  await expect.poll(() => frame.locator('h2').textContent()).toBe('Good news, Ada!')
  expect(await frame.locator('a').getAttribute('href')).toBe('https://shop.example/track/A-1003')
  await shot(page, 'outbox')
  await page.getByRole('tab', { name: 'Source' }).click()
  expect(await page.locator('.tab-body pre').textContent()).toContain('<b>A-1003</b>')
  await page.setViewportSize({ width: 560, height: 900 })
  await shot(page, 'outbox-narrow')
})

test('the outbox is empty before anything is sent, and says so', async () => {
  const m = await mock()
  const page = await open(`${m.url}/__admin/ui`)
  await expect
    .poll(() => page.locator('#outbox-table td.empty').textContent())
    .toContain('No messages yet')
  await shot(page, 'outbox-empty')
})

test('with 10,000 messages and 1,000 requests, the outbox and journal open on their first page', async () => {
  const m = await mock()
  await orders(m, 0)
  // 3,334 triggers (three messages each) in bulks of 100.
  for (let first = 1; first <= 3334; first += 100) {
    const events = []
    for (let i = first; i < Math.min(first + 100, 3335); i++)
      events.push({
        name: 'order-shipped',
        to: { subscriberId: `c-${i}`, email: `c-${i}@example.com`, phone: '+15550100' },
        payload: { orderId: `B-${i}` },
      })
    expect((await call(m, 'POST', '/v1/events/trigger/bulk', { events })).status).toBe(201)
  }
  for (let batch = 0; batch < 20; batch++)
    await Promise.all(Array.from({ length: 50 }, () => call(m, 'GET', '/v1/topics')))
  const started = Date.now()
  const page = await open(`${m.url}/__admin/ui#outbox`)
  await expect.poll(() => page.locator('.pager span').textContent()).toBe('1–50 of 10002')
  const outboxMs = Date.now() - started
  expect(await page.locator('#outbox-table tbody tr').count()).toBe(50)
  await page.getByRole('button', { name: 'Older ›' }).click()
  await expect.poll(() => page.locator('.pager span').textContent()).toBe('51–100 of 10002')
  const journalStarted = Date.now()
  await page.goto(`${m.url}/__admin/ui#journal`)
  await expect.poll(() => page.locator('#journal-table tbody tr').count()).toBe(100)
  const journalMs = Date.now() - journalStarted
  expect(await page.locator('.pager span').textContent()).toMatch(/^100 of 1000 /)
  console.log(
    `10,002 messages: outbox shown in ${outboxMs} ms; 1,000 requests: journal in ${journalMs} ms`
  )
}, 120_000)

test('the journal shows requests live as they arrive', async () => {
  const m = await mock()
  const page = await open(`${m.url}/__admin/ui#journal`)
  await expect.poll(() => page.locator('#live.on').count()).toBe(1)
  await call(m, 'GET', '/v1/topics?page=0')
  await call(m, 'GET', '/v1/no-such-thing')
  const row = page.locator('#journal-table tbody tr', { hasText: '/v1/no-such-thing' })
  await expect.poll(() => row.count()).toBe(1)
  expect(await row.textContent()).toContain('404')
  expect(await row.textContent()).toContain('shop…42')
  await row.click()
  expect(await page.locator('.detail').textContent()).toContain('No route matched')
  expect(await page.locator('.detail').textContent()).not.toContain('shop-key-0042')
  await shot(page, 'journal')
})

test('a chaos rule added in the form fires on the next request', async () => {
  const m = await mock()
  const page = await open(`${m.url}/__admin/ui#rules`)
  await page.locator('#rule-form input[name=path]').fill('/v1/topics')
  await page.locator('#rule-form input[name=status]').fill('418')
  expect(JSON.parse(await page.locator('#rule-form textarea').inputValue())).toEqual({
    match: { path: '/v1/topics' },
    fault: { status: 418 },
    times: 1,
  })
  await page.getByRole('button', { name: 'Add rule' }).click()
  await expect.poll(() => page.locator('#rules-table tbody tr[data-id]').count()).toBe(1)
  expect((await call(m, 'GET', '/v1/topics')).status).toBe(418)
  expect((await call(m, 'GET', '/v1/topics')).status).toBe(200)
  await shot(page, 'rules')
})

test('the environments page lists keys redacted and resets one', async () => {
  const m = await mock()
  await orders(m, 2)
  const page = await open(`${m.url}/__admin/ui#environments`)
  const row = page.locator('#environments-table tbody tr', { hasText: 'shop…42' })
  await expect.poll(() => row.count()).toBe(1)
  expect(await page.content()).not.toContain('shop-key-0042')
  await shot(page, 'environments')
  page.once('dialog', (dialog) => dialog.accept())
  await row.getByRole('button', { name: 'Reset' }).click()
  await expect.poll(async () => (await m.admin.messages()).length).toBe(0)
})

test('with ADMIN_TOKEN, the dashboard refuses without its cookie and opens with it', async () => {
  const m = await mock({ adminToken: 'open-sesame' })
  const page = await open(`${m.url}/__admin/ui`)
  await expect.poll(() => page.locator('#login').count()).toBe(1)
  const refused = await page.evaluate(async () => (await fetch('/__admin/messages')).status)
  expect(refused).toBe(401)
  await shot(page, 'login')
  await page.locator('#login input[name=token]').fill('wrong')
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await expect.poll(() => page.locator('#login-error').textContent()).toContain('401')
  await page.locator('#login input[name=token]').fill('open-sesame')
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await expect.poll(() => page.locator('#outbox-table').count()).toBe(1)
  // The cookie is HttpOnly: the page's scripts cannot read it.
  expect(
    await page.evaluate(
      () => (globalThis as unknown as { document: { cookie: string } }).document.cookie
    )
  ).toBe('')
  const cookies = await page.context().cookies()
  expect(cookies).toEqual([
    expect.objectContaining({
      name: 'novu_mock_admin',
      httpOnly: true,
      sameSite: 'Strict',
      path: '/__admin',
    }),
  ])
  expect(cookies[0]?.value).not.toContain('open-sesame')
  const allowed = await page.evaluate(async () => (await fetch('/__admin/messages')).status)
  expect(allowed).toBe(200)
  // The same cookie from another origin (or with no Origin at all) cannot write.
  const cookie = `novu_mock_admin=${cookies[0]?.value}`
  const foreign = await fetch(`${m.url}/__admin/reset`, {
    method: 'POST',
    headers: { cookie, origin: 'http://evil.example' },
  })
  expect(foreign.status).toBe(403)
  const bare = await fetch(`${m.url}/__admin/reset`, { method: 'POST', headers: { cookie } })
  expect(bare.status).toBe(403)
})

test("an email's script does not run, and its remote loads do not happen", async () => {
  const m = await mock()
  await orders(m, 1)
  const state = await m.admin.exportState('shop-key-0042')
  const email = state.messages?.find((msg) => msg.channel === 'email') as Record<string, unknown>
  email.subject = 'Hostile email'
  email.content =
    `<h1 id="title">Hostile</h1>` +
    `<script>top.document.title = 'pwned'; fetch('${m.url}/v1/from-script')</script>` +
    `<img src="${m.url}/v1/from-img" onerror="top.document.title = 'pwned-by-onerror'">` +
    `<link rel="stylesheet" href="${m.url}/v1/from-css">`
  await m.admin.importState('shop-key-0042', state)
  const page = await open(`${m.url}/__admin/ui#outbox`)
  // What got an answer: a load the policy blocks is reported as a request, never answered.
  const answered: string[] = []
  page.on('response', (response) => answered.push(response.url()))
  await page.locator('#outbox-table tbody tr', { hasText: 'Hostile email' }).click()
  const frame = page.frameLocator('iframe.preview')
  await expect.poll(() => frame.locator('#title').textContent()).toBe('Hostile')
  expect(await page.title()).toBe('novu-mock dashboard')
  expect(answered.filter((url) => url.includes('/v1/from-'))).toEqual([])
  expect(await m.admin.countRequests({ path: '/v1/from-*' })).toBe(0)
  // Opened on its own, the preview is still sandboxed by its Content-Security-Policy.
  const direct = await page.evaluate(async () => {
    const src =
      (globalThis as unknown as { document: PageDocument }).document
        .querySelector('iframe.preview')
        ?.getAttribute('src') ?? ''
    return (await fetch(src)).headers.get('content-security-policy')
  })
  expect(direct).toMatch(/^sandbox; default-src 'none'/)
  await shot(page, 'hostile-email')
})
