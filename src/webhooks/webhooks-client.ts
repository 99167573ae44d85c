import type { z } from 'zod'
import { query } from '../admin/outbox-client.js'
import type { WebhookEventType } from './event-types.js'
import type {
  DeliveryViewSchema,
  EndpointInputSchema,
  EndpointViewSchema,
} from './webhooks.schemas.js'

/** What `addWebhook` takes: `url`, and optionally `events` and a `whsec_` secret. */
export type WebhookEndpointInput = z.input<typeof EndpointInputSchema>
/** An endpoint as the control plane shows it, with its secret. */
export type WebhookEndpoint = z.infer<typeof EndpointViewSchema>
/** One attempt of the delivery log. */
export type WebhookDelivery = z.infer<typeof DeliveryViewSchema> & {
  error?: string
  nextAttemptAt?: string
}

export interface DeliveryFilterInput {
  apiKey?: string
  endpoint?: string
  type?: WebhookEventType
  eventId?: string
  /** An outcome (`delivered`, `retrying`, `failed`, `dropped`), a status (`500`) or a class (`5xx`). */
  status?: string
  limit?: number
}

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>

const keyQuery = (apiKey?: string) => query({ apiKey })

/** The client's webhook methods, over its `call`. */
export function webhookMethods(call: Call) {
  const deliveries = async (filter: DeliveryFilterInput = {}) =>
    (await call<{ data: WebhookDelivery[] }>('GET', `/webhooks/deliveries${query({ ...filter })}`))
      .data
  return {
    /** Adds an endpoint for the key's events, or (no key) every key's; resolves to it, secret included. */
    addWebhook: async (endpoint: WebhookEndpointInput, apiKey?: string) =>
      (await call<{ data: WebhookEndpoint }>('POST', `/webhooks${keyQuery(apiKey)}`, endpoint))
        .data,
    /** Every endpoint, or those serving the key. */
    webhooks: async (apiKey?: string) =>
      (await call<{ data: WebhookEndpoint[] }>('GET', `/webhooks${keyQuery(apiKey)}`)).data,
    removeWebhook: async (id: string) =>
      (await call<{ data: WebhookEndpoint }>('DELETE', `/webhooks/${encodeURIComponent(id)}`)).data,
    /** Sends a sample `message.*` event to the endpoint after the answer. */
    testWebhook: async (id: string, options: { type?: WebhookEventType; apiKey?: string } = {}) =>
      (
        await call<{ data: { eventId: string; webhookId: string } }>(
          'POST',
          `/webhooks/${encodeURIComponent(id)}/test${keyQuery(options.apiKey)}`,
          options.type ? { type: options.type } : {}
        )
      ).data,
    /** Delivery attempts, newest first. */
    webhookDeliveries: deliveries,
    /**
     * The attempts that match once there are at least `count` (default 1): deliveries go out
     * after the answer that caused them, so a test waits for their outcome. Rejects after
     * `timeoutMs` (default 5 s).
     */
    async waitForDeliveries(
      filter: DeliveryFilterInput = {},
      { count = 1, timeoutMs = 5000 }: { count?: number; timeoutMs?: number } = {}
    ): Promise<WebhookDelivery[]> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = await deliveries({ ...filter, limit: Math.max(count, filter.limit ?? 100) })
        if (found.length >= count) return found
        if (Date.now() >= deadline)
          throw new Error(
            `${found.length} of ${count} webhook deliveries matched ${JSON.stringify(filter)} within ${timeoutMs} ms (novu-mock)`
          )
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
  }
}
