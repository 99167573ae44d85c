import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'svix'
import { startMock } from '../src/server.js'

/** One request the receiver got: its headers and raw body, as a consumer's handler sees them. */
export interface Received {
  headers: Record<string, string>
  body: string
}

/** How the receiver answers: a status, or never (a hung handler). */
export type Answer = number | 'hang'

/**
 * A consumer's webhook handler on port 0: records what arrives and answers as told (a list of
 * answers is used in order, its last one kept). `next(n)` waits for the n-th request.
 */
export async function startReceiver(answers: Answer | Answer[] = 204) {
  const received: Received[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const hung = new Set<ServerResponse>()
  const plan = Array.isArray(answers) ? answers : [answers]
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers[name] = value
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') })
      const answer = plan[Math.min(received.length - 1, plan.length - 1)]
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve()
      if (answer === 'hang') hung.add(res)
      else res.writeHead(answer ?? 204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks/novu`,
    received,
    /** Resolves once `count` requests in all have arrived. */
    next: (count: number) =>
      new Promise<void>((resolve) => {
        if (received.length >= count) resolve()
        else waiters.push({ count, resolve })
      }),
    /** Requests it holds unanswered. */
    hanging: () => hung.size,
    async close() {
      for (const res of hung) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * The event a request carries, once `svix` verified it as a consumer's handler does: the
 * signature, and the timestamp within 5 minutes of now (it throws otherwise; svix 2 returns
 * nothing, so the body is parsed here).
 */
export function verified<T = Record<string, unknown>>(secret: string, request: Received): T {
  new Webhook(secret).verify(request.body, request.headers)
  return JSON.parse(request.body) as T
}

/** A mock on the default data with a fixed clock (retries move only with POST /__admin/clock). */
export async function startFixedClockMock(extra: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-webhooks-'))
  const file = join(dir, 'webhooks.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'webhooks',
      fixture: 'default',
      clock: { mode: 'fixed', at: '2026-08-01T09:00:00.000Z' },
      ...extra,
    })
  )
  try {
    return await startMock({ port: 0, scenario: file, logLevel: 'silent' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Triggers the default data's in-app workflow for user-1042 with a plain fetch. */
export async function triggerWelcome(baseUrl: string, apiKey: string) {
  const res = await fetch(`${baseUrl}/v1/events/trigger`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'welcome-email',
      to: 'user-1042',
      payload: { firstName: 'Ada', productName: 'Acme' },
    }),
  })
  return res
}
