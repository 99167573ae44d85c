import type { JournalEntry, JournalFilter } from '../journal/journal.js'

const utf8 = (text: string) => new TextEncoder().encode(text)

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export interface AdminClientOptions {
  /** Base URL of the mock, e.g. http://127.0.0.1:4000. */
  baseUrl: string
  /** ADMIN_TOKEN, when the mock was started with one. */
  token?: string
  fetch?: FetchLike
}

export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown
  ) {
    const message = (body as { message?: unknown })?.message
    super(
      `novu-mock admin call failed with ${status}: ${Array.isArray(message) ? message.join('; ') : String(message)}`
    )
    this.name = 'AdminError'
  }
}

const filterQuery = (filter: JournalFilter = {}) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filter))
    if (value !== undefined) params.set(name, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * A typed client of the control plane, for test setups: works against a mock in the same
 * process, a started one, or a container.
 *
 * @example
 * const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:4000' })
 * await admin.addRule({ match: { method: 'GET', path: '/v1/topics' }, fault: { status: 503 }, times: 2 })
 * expect(await admin.countRequests({ method: 'GET', path: '/v1/topics' })).toBe(3)
 */
export function createAdminClient(options: AdminClientOptions) {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {}
    // As its UTF-8 bytes, one character each: fetch refuses characters beyond latin1 in headers.
    if (options.token)
      headers.authorization = `Bearer ${String.fromCharCode(...utf8(options.token))}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await send(`${options.baseUrl}/__admin${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    const parsed: unknown = text ? JSON.parse(text) : undefined
    if (!res.ok) throw new AdminError(res.status, parsed)
    return parsed as T
  }
  const key = (apiKey?: string) =>
    apiKey === undefined ? '' : `?apiKey=${encodeURIComponent(apiKey)}`

  return {
    health: () => call<{ status: 'ok'; version: string; scenario: string }>('GET', '/health'),
    scenarios: async () =>
      (await call<{ data: { name: string; description: string }[] }>('GET', '/scenarios')).data,
    /** Loads a scenario by name or inline, and resets every environment to it. */
    loadScenario: async (scenario: string | Record<string, unknown>) =>
      (
        await call<{ data: unknown }>(
          'POST',
          '/scenario',
          typeof scenario === 'string' ? { name: scenario } : { scenario }
        )
      ).data,
    reset: (apiKey?: string) => call<unknown>('POST', `/reset${key(apiKey)}`),
    exportState: (apiKey: string) => call<Record<string, unknown[]>>('GET', `/state${key(apiKey)}`),
    importState: (apiKey: string, data: unknown) =>
      call<Record<string, unknown[]>>('PUT', `/state${key(apiKey)}`, data),
    addRule: <T = Record<string, unknown>>(rule: Record<string, unknown>) =>
      call<T>('POST', '/rules', rule),
    rules: () => call<unknown>('GET', '/rules'),
    removeRule: (id: string) => call<unknown>('DELETE', `/rules/${encodeURIComponent(id)}`),
    clearRules: () => call<unknown>('DELETE', '/rules'),
    setLatency: (latency: number | Record<string, unknown>) =>
      call<unknown>('PUT', '/latency', typeof latency === 'number' ? { ms: latency } : latency),
    requests: async (filter?: JournalFilter) =>
      (await call<{ data: JournalEntry[] }>('GET', `/requests${filterQuery(filter)}`)).data,
    countRequests: async (filter?: JournalFilter) =>
      (await call<{ count: number }>('GET', `/requests/count${filterQuery(filter)}`)).count,
    clearRequests: async () =>
      (await call<{ data: { cleared: number } }>('DELETE', '/requests')).data.cleared,
  }
}

export type AdminClient = ReturnType<typeof createAdminClient>
