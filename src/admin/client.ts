import type { z } from 'zod'
import type { JournalEntry, JournalFilter } from '../journal/journal.js'
import type { RuleView } from '../chaos/rules.js'
import { outboxMethods, type MessageFilter } from './outbox-client.js'
import { webhookMethods, type DeliveryFilterInput } from '../webhooks/webhooks-client.js'
import type { WebhookEndpointInput } from '../webhooks/webhooks-client.js'
import type { LatencySchema, RuleSchema } from '../chaos/rules.schemas.js'
import type { DataSchema, ScenarioSchema } from '../scenarios/schema.js'
import type { HealthSchema, ScenarioSummarySchema } from './admin.schemas.js'
import type { ClockBodySchema, ClockViewSchema } from './clock.routes.js'

// The types of what the control plane takes and answers, derived from the zod schemas that
// validate (or document) its routes: an editor completes `match`, `fault`, `sequence`….

/** `GET /__admin/health`. */
export type Health = z.infer<typeof HealthSchema>
/** One entry of `GET /__admin/scenarios`. */
export type ScenarioSummary = z.infer<typeof ScenarioSummarySchema>
/** A whole scenario as `loadScenario` (and a scenario file) takes it. */
export type ScenarioInput = z.input<typeof ScenarioSchema>
/** One chaos rule as `addRule` takes it: `match`, then `fault`, `delay` or `sequence`, and limits. */
export type RuleInput = z.output<typeof RuleSchema>
/** A rule as the mock shows it back: its id, source, counters and what remains of its limits. */
export type { RuleView }
/** One environment's records as `exportState` answers them and `importState` takes them. */
export type StateData = z.input<typeof DataSchema>
/** A clock as `GET /__admin/clock` shows it. */
export type ClockView = z.infer<typeof ClockViewSchema>['data']
/** How `advanceClock` moves a clock: ms, a duration such as `"15m"`, or `{ to: ISO }`. */
export type ClockMove = number | string | { to: string }
type ClockBody = z.input<typeof ClockBodySchema>
/** `setLatency`'s body: `{ ms }`. */
export type LatencyInput = z.input<typeof LatencySchema>

/**
 * A journal entry as the client reads it: `json` is its body parsed, when the body was JSON and
 * kept whole (under 2 kB), so that a test reads fields without parsing.
 */
export type JournalEntryView<Body = unknown> = JournalEntry & { json?: Body }

function withJson<Body>(entry: JournalEntry): JournalEntryView<Body> {
  if (entry.body === undefined || entry.bodyTruncated) return entry
  try {
    return { ...entry, json: JSON.parse(entry.body) as Body }
  } catch {
    return entry
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text)

/**
 * `Bearer <token>` with the token as its UTF-8 bytes, one character each: fetch refuses
 * characters beyond latin1 in a header, and the mock compares the token as UTF-8 bytes.
 */
export const bearer = (token: string) => `Bearer ${String.fromCharCode(...utf8(token))}`

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
    const { message, errors } = (body ?? {}) as {
      message?: unknown
      errors?: { general?: { messages?: unknown } }
    }
    // The 2026-08 generation keeps the details under errors.general.messages.
    const details = errors?.general?.messages
    const text = [message, details]
      .flatMap((part) => (Array.isArray(part) ? part : part === undefined ? [] : [part]))
      .map(String)
      .join('; ')
    super(`novu-mock admin call failed with ${status}: ${text}`)
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
    if (options.token) headers.authorization = bearer(options.token)
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

  const client = {
    health: () => call<Health>('GET', '/health'),
    scenarios: async () => (await call<{ data: ScenarioSummary[] }>('GET', '/scenarios')).data,
    /** Loads a scenario by name or inline, and resets every environment to it. */
    loadScenario: async (scenario: string | ScenarioInput) =>
      (
        await call<{ data: unknown }>(
          'POST',
          '/scenario',
          typeof scenario === 'string' ? { name: scenario } : { scenario }
        )
      ).data,
    /**
     * Without a key: every environment, the journal and the rules back to the scenario. With one:
     * that key's environment, the rules that match only that key and its journal entries.
     */
    reset: (apiKey?: string) => call<unknown>('POST', `/reset${key(apiKey)}`),
    exportState: (apiKey: string) => call<StateData>('GET', `/state${key(apiKey)}`),
    importState: (apiKey: string, data: StateData) =>
      call<StateData>('PUT', `/state${key(apiKey)}`, data),
    /** Resolves to `{ data: rule }`, the rule with its id and counters. */
    addRule: (rule: RuleInput) => call<{ data: RuleView }>('POST', '/rules', rule),
    /** `{ data: rules, maxRules }`, newest first; with a key, only the rules that match just that key. */
    rules: (apiKey?: string) =>
      call<{ data: RuleView[]; maxRules: number }>('GET', `/rules${key(apiKey)}`),
    removeRule: (id: string) =>
      call<{ data: RuleView }>('DELETE', `/rules/${encodeURIComponent(id)}`),
    /** Removes every rule, or only the rules that match just the key: `{ data: { removed } }`. */
    clearRules: (apiKey?: string) =>
      call<{ data: { removed: number } }>('DELETE', `/rules${key(apiKey)}`),
    setLatency: (latency: number | LatencyInput) =>
      call<unknown>('PUT', '/latency', typeof latency === 'number' ? { ms: latency } : latency),
    /** Journal entries, newest first; `json` holds a whole JSON body parsed. */
    requests: async <Body = unknown>(filter?: JournalFilter) =>
      (await call<{ data: JournalEntry[] }>('GET', `/requests${filterQuery(filter)}`)).data.map(
        (entry) => withJson<Body>(entry)
      ),
    countRequests: async (filter?: JournalFilter) =>
      (await call<{ count: number }>('GET', `/requests/count${filterQuery(filter)}`)).count,
    /** Clears the journal, or only the key's entries; resolves to how many went. */
    clearRequests: async (apiKey?: string) =>
      (await call<{ data: { cleared: number } }>('DELETE', `/requests${key(apiKey)}`)).data.cleared,
    /** The journal (with the same filters) as a replay script object. */
    exportRequests: (filter?: JournalFilter & { name?: string }) =>
      call<Record<string, unknown>>('GET', `/requests/export${filterQuery(filter)}`),
    /** The time of a key's environment (or the scenario's clock) and its delayed steps still waiting. */
    clock: async (apiKey?: string) =>
      (await call<{ data: ClockView }>('GET', `/clock${key(apiKey)}`)).data,
    /**
     * Moves a key's clock (or every key's) forward, by ms or a duration such as `"15m"`, or to
     * `{ to: ISO }`, and runs the delays and digests that became due.
     */
    advanceClock: async (by: ClockMove, apiKey?: string) => {
      const body: ClockBody = typeof by === 'object' ? by : { advance: by }
      return (await call<{ data: ClockView }>('POST', `/clock${key(apiKey)}`, body)).data
    },
    /**
     * A client for one API key: its reads, counts, rules and resets touch that key only, so
     * parallel test files that each use their own key never see each other's data, rules or
     * journal. Rules it adds match that key only.
     *
     * @example
     * const admin = createAdminClient({ baseUrl }).forKey('orders-test')
     * beforeEach(() => admin.reset())
     * await admin.addRule({ match: { method: 'POST', path: '/v1/workflows' }, fault: { status: 503 }, times: 1 })
     * expect(await admin.countRequests({ method: 'POST', path: '/v1/workflows' })).toBe(2)
     */
    forKey: (apiKey: string) => scopedClient(apiKey),
    ...outboxMethods(call),
    ...webhookMethods(call),
  }

  function scopedClient(apiKey: string) {
    const own = async <F extends object>(filter?: F & { apiKey?: string }) => {
      if (filter?.apiKey !== undefined && filter.apiKey !== apiKey)
        throw new Error(`this admin client is scoped to one API key: drop filter.apiKey`)
      return { ...filter, apiKey }
    }
    return {
      apiKey,
      /** The key's environment, its rules (the scenario's come back) and its journal entries. */
      reset: () => client.reset(apiKey),
      exportState: () => client.exportState(apiKey),
      importState: (data: StateData) => client.importState(apiKey, data),
      /** Adds a rule that matches this key only (match.apiKey is set for you). */
      addRule: (rule: RuleInput) => call<{ data: RuleView }>('POST', `/rules${key(apiKey)}`, rule),
      rules: () => client.rules(apiKey),
      /** Removes one of this key's rules; another key's rule is a 404. */
      removeRule: (id: string) =>
        call<{ data: RuleView }>('DELETE', `/rules/${encodeURIComponent(id)}${key(apiKey)}`),
      clearRules: () => client.clearRules(apiKey),
      clock: () => client.clock(apiKey),
      advanceClock: (by: ClockMove) => client.advanceClock(by, apiKey),
      requests: async <Body = unknown>(filter?: Omit<JournalFilter, 'apiKey'>) =>
        client.requests<Body>(await own(filter)),
      countRequests: async (filter?: Omit<JournalFilter, 'apiKey'>) =>
        client.countRequests(await own(filter)),
      clearRequests: () => client.clearRequests(apiKey),
      exportRequests: async (filter?: Omit<JournalFilter, 'apiKey'> & { name?: string }) =>
        client.exportRequests(await own(filter)),
      messages: async (filter?: Omit<MessageFilter, 'apiKey'>) =>
        client.messages(await own(filter)),
      /** Adds an endpoint for this key's events. */
      addWebhook: (endpoint: WebhookEndpointInput) => client.addWebhook(endpoint, apiKey),
      /** This key's endpoints and the global ones. */
      webhooks: () => client.webhooks(apiKey),
      webhookDeliveries: async (filter?: Omit<DeliveryFilterInput, 'apiKey'>) =>
        client.webhookDeliveries(await own(filter)),
      waitForDeliveries: async (
        filter?: Omit<DeliveryFilterInput, 'apiKey'>,
        options?: { count?: number; timeoutMs?: number }
      ) => client.waitForDeliveries(await own(filter), options),
      waitForMessage: async (
        filter?: Omit<MessageFilter, 'apiKey'>,
        options?: { timeoutMs?: number }
      ) => client.waitForMessage(await own(filter), options),
    }
  }

  return client
}

export type AdminClient = ReturnType<typeof createAdminClient>
export type ScopedAdminClient = ReturnType<AdminClient['forKey']>
