import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import type { Context } from 'hono'
import { html } from 'hono/html'
import { httpError, notFound, unauthorized } from '../../errors.js'
import { json } from '../../http/respond.js'
import { redactKey } from '../../http/redact.js'
import { PACKAGE_ROOT } from '../../package-root.js'
import type { MockState } from '../../state.js'
import type { Environment } from '../../tenancy/environment.js'
import { resetState } from '../../scenarios/activate.js'
import { ADMIN_COOKIE, cookieMatcher, cookieValueOf, tokenMatcher } from '../admin-auth.js'
import { renderedOutput } from '../rendered-message.js'
import { streamEnvironment } from '../state-export.js'
import { replaceEnvironment } from '../state.routes.js'
import { VERSION } from '../version.js'
import { BoundedCache, textBytes } from '../../cache.js'

/** The dashboard's own page: its script and style only, no inline code, no other origin. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/**
 * An email's HTML: `sandbox` gives it an opaque origin with scripts, forms and popups off even
 * when opened on its own; nothing loads but inline styles and data: images.
 */
const PREVIEW_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; " +
  "form-action 'none'; base-uri 'none'"

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

/** The assets: from src/ while developing (always current), from dist/ once packed. */
const ASSET_DIR = ['src', 'dist']
  .map((top) => join(PACKAGE_ROOT, top, 'admin', 'ui', 'assets'))
  .find((dir) => existsSync(dir))

const ASSETS: Record<string, string> = {
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
}
const assetCache = new BoundedCache<string, string>('dashboard assets', {
  // A closed set: the files above, read once.
  maxEntries: 8,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (text) => textBytes(text),
})

export function asset(c: Context, name: string): Response {
  const type = ASSETS[name]
  if (!type || !ASSET_DIR) throw notFound(`No dashboard asset ${name}`)
  const dir = ASSET_DIR
  const text = assetCache.memo(name, () => readFileSync(join(dir, name), 'utf8'))
  return c.body(text, 200, { 'Content-Type': type, ...SECURITY_HEADERS })
}

function authorised(c: Context, state: MockState): boolean {
  const token = state.options.adminToken
  if (token === undefined) return true
  const header = c.req.header('authorization') ?? ''
  if (header.startsWith('Bearer ') && tokenMatcher(token)(header.slice(7))) return true
  return cookieMatcher(token)(c)
}

const shell = (title: string, body: unknown) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/__admin/ui/assets/dashboard.css" />
      </head>
      ${body}
    </html>`

export function page(c: Context, state: MockState): Response | Promise<Response> {
  const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': PAGE_CSP }
  for (const [name, value] of Object.entries(headers)) c.header(name, value)
  if (!authorised(c, state))
    return c.html(
      shell(
        'novu-mock: sign in',
        html`<body class="login">
          <form id="login" class="card">
            <h1>novu-mock</h1>
            <p>
              This mock was started with <code>ADMIN_TOKEN</code>. Enter it once: the dashboard
              keeps it in an HttpOnly cookie.
            </p>
            <label
              >Admin token
              <input type="password" name="token" autocomplete="off" autofocus required
            /></label>
            <button type="submit">Open the dashboard</button>
            <p class="error" id="login-error" hidden></p>
          </form>
          <script type="module" src="/__admin/ui/assets/dashboard.js"></script>
        </body>`
      ),
      401
    )
  return c.html(
    shell(
      'novu-mock dashboard',
      html`<body
        data-scenario="${state.scenario.name}"
        data-generation="${state.generation().name}"
        data-version="${VERSION}"
      >
        <header>
          <strong>novu-mock</strong>
          <nav>
            <a href="#outbox">Outbox</a><a href="#journal">Journal</a
            ><a href="#environments">Environments</a><a href="#rules">Chaos rules</a
            ><a href="#webhooks">Webhooks</a>
          </nav>
          <span class="meta"
            >scenario <b>${state.scenario.name}</b> · ${state.generation().name} · v${VERSION}
            <span id="live" class="live" title="live updates">●</span></span
          >
        </header>
        <main id="app"></main>
        <script type="module" src="/__admin/ui/assets/dashboard.js"></script>
      </body>`
    )
  )
}

export function login(c: Context, state: MockState, token: string): Response {
  const expected = state.options.adminToken
  if (expected === undefined) return c.body(null, 204)
  if (!tokenMatcher(expected)(token)) throw unauthorized('That is not the admin token')
  const secure = new URL(c.req.url).protocol === 'https:' ? '; Secure' : ''
  c.header(
    'Set-Cookie',
    `${ADMIN_COOKIE}=${cookieValueOf(expected)}; Path=/__admin; HttpOnly; SameSite=Strict${secure}`
  )
  return c.body(null, 204)
}

function environmentById(state: MockState, environmentId: string): [string, Environment] {
  for (const apiKey of state.environments.keys()) {
    const env = state.environments.peek(apiKey)
    if (env?._environmentId === environmentId) return [apiKey, env]
  }
  throw notFound(`No environment ${environmentId}: it was reset or never built`)
}

export function preview(
  c: Context,
  state: MockState,
  environmentId: string,
  messageId: string
): Response {
  const [, env] = environmentById(state, environmentId)
  const message = env.messages.find(messageId)
  if (!message || message.channel !== 'email') throw notFound(`No email ${messageId}`)
  const rendered = renderedOutput(message)
  const text = 'html' in rendered ? rendered.html : ''
  return c.body(text, 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PREVIEW_CSP,
    ...SECURITY_HEADERS,
  })
}

export function environments(c: Context, state: MockState): Response {
  const data = state.environments.keys().flatMap((apiKey) => {
    const env = state.environments.peek(apiKey)
    if (!env) return []
    return [
      {
        environmentId: env._environmentId,
        apiKey: redactKey(apiKey),
        role: env.role,
        generation: env.generation.name,
        clock: { now: env.clock.now().toISOString(), fixed: env.clock.fixed },
        pending: env.notifications.pendingCount(),
        counts: {
          workflows: env.workflows.liveCount(),
          subscribers: env.subscribers.size(),
          topics: env.topics.size(),
          messages: env.messages.list({}).totalCount,
        },
      },
    ]
  })
  return json(c, 200, { data, scenario: state.scenario.name })
}

export function resetEnvironment(c: Context, state: MockState, environmentId: string): Response {
  const [apiKey] = environmentById(state, environmentId)
  resetState(state, apiKey)
  state.events.emit({ type: 'reset', apiKey })
  return json(c, 200, { data: { reset: 'environment' } })
}

export function exportEnvironment(c: Context, state: MockState, environmentId: string) {
  const [, env] = environmentById(state, environmentId)
  c.header('Content-Disposition', `attachment; filename="state-${environmentId}.json"`)
  return streamEnvironment(c, env)
}

export function importEnvironment(c: Context, state: MockState, environmentId: string) {
  const [apiKey] = environmentById(state, environmentId)
  const body: unknown = c.get('body')
  if (body === undefined) throw httpError(400, 'Send the state as a JSON body')
  const env = replaceEnvironment(state, apiKey, body)
  state.events.emit({ type: 'reset', apiKey })
  return streamEnvironment(c, env)
}
