import type { WebhookEventType } from './event-types.js'

/** Where a consumer's app receives webhooks: for one API key's events, or (no key) every key's. */
export interface Endpoint {
  id: string
  url: string
  /** The event types it takes; null: every type. */
  events: WebhookEventType[] | null
  secret: string
  apiKey?: string
  source: 'admin' | 'scenario'
  createdAt: string
  /** The last attempt's outcome: an endpoint whose last attempt failed is reported failing. */
  lastAttempt?: { at: string; status: number | null; ok: boolean }
}

/** Endpoints one key (or the global scope) may hold: a test registers a few. */
export const MAX_ENDPOINTS_PER_SCOPE = 100

/** The endpoints, in the order they were added. */
export function createEndpointStore() {
  const byId = new Map<string, Endpoint>()
  const inScope = (apiKey: string | undefined) =>
    [...byId.values()].filter((e) => e.apiKey === apiKey).length
  return {
    add(endpoint: Endpoint) {
      byId.set(endpoint.id, endpoint)
      return endpoint
    },
    get: (id: string) => byId.get(id),
    remove: (id: string) => byId.delete(id),
    /** Every endpoint, or those that serve the key (its own and the global ones). */
    list: (apiKey?: string) =>
      [...byId.values()].filter(
        (e) => apiKey === undefined || e.apiKey === undefined || e.apiKey === apiKey
      ),
    /** The endpoints that take `type` from the key's environment. */
    forEvent: (apiKey: string, type: WebhookEventType) =>
      [...byId.values()].filter(
        (e) =>
          (e.apiKey === undefined || e.apiKey === apiKey) &&
          (e.events === null || e.events.includes(type))
      ),
    inScope,
    /** Drops the key's own endpoints (global ones stay). */
    removeKey(apiKey: string) {
      for (const [id, e] of byId) if (e.apiKey === apiKey) byId.delete(id)
    },
    clear: () => byId.clear(),
    size: () => byId.size,
  }
}
