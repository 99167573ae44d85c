import { z } from 'zod'
import { badRequest, notFound } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import { redactKey } from '../http/redact.js'
import type { MockState } from '../state.js'
import { OptionalApiKeyQuerySchema } from '../admin/admin.schemas.js'
import { environmentFor, strictRefusal } from '../admin/state.routes.js'
import { fakerLoaded, loadFaker } from '../fixtures/faker.js'
import { deliveryView } from './delivery-log.js'
import type { Endpoint } from './endpoints.js'
import { sampleMessageData, TEST_EVENT_TYPES } from './sample.js'
import {
  DeliveryQuerySchema,
  DeliveryViewSchema,
  EndpointInputSchema,
  EndpointViewSchema,
} from './webhooks.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']
const QueueViewSchema = lazySchema(() =>
  z.object({
    waiting: z.number().meta({ description: 'deliveries queued, in flight or due for a retry' }),
    scheduled: z.number().meta({ description: 'retries due later by the key clock' }),
    limit: z.number().meta({ description: 'past it, new deliveries are dropped (and logged)' }),
  })
)
const IdParams = lazySchema(() => z.object({ id: z.string().max(64) }))
const EndpointEnvelope = lazySchema(() => z.object({ data: EndpointViewSchema }))
const TestBodySchema = lazySchema(() =>
  z
    .strictObject({
      type: z.enum(TEST_EVENT_TYPES).optional().meta({ description: 'default message.sent' }),
    })
    .optional()
)

const endpointView = (e: Endpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  secret: e.secret,
  apiKey: e.apiKey === undefined ? null : redactKey(e.apiKey),
  source: e.source,
  createdAt: e.createdAt,
  failing: e.lastAttempt?.ok === false,
  ...(e.lastAttempt ? { lastAttempt: e.lastAttempt } : {}),
})

/** The control plane of outbound webhooks: endpoints, the delivery log, test sends. */
export function webhookRoutes(state: MockState): AnyRoute[] {
  const { webhooks } = state
  const endpointOf = (id: string) => {
    const endpoint = webhooks.endpoints.get(id)
    if (!endpoint) throw notFound(`No webhook endpoint with id ${id}`)
    return endpoint
  }
  return [
    defineRoute({
      method: 'POST',
      path: '/__admin/webhooks',
      summary: "Add a webhook endpoint for one key's events (apiKey), or every key's",
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      body: EndpointInputSchema,
      responses: {
        201: { description: 'The endpoint, with its secret', schema: EndpointEnvelope },
        400: { description: 'Not an http(s) URL, an unknown event type, a malformed secret' },
        403: { description: 'The endpoint limit' },
      },
      handler(c, { query, body }) {
        if (query.apiKey !== undefined && !state.environments.allows(query.apiKey))
          throw strictRefusal()
        return json(c, 201, { data: endpointView(webhooks.addEndpoint(body, query.apiKey)) })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/webhooks',
      summary: 'The webhook endpoints: all, or those serving one key',
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      responses: {
        200: {
          description: "The endpoints; with apiKey, the key's delivery queue too",
          schema: lazySchema(() =>
            z.object({
              data: z.array(EndpointViewSchema),
              queue: QueueViewSchema.optional(),
            })
          ),
        },
      },
      handler(c, { query }) {
        const data = webhooks.endpoints.list(query.apiKey).map(endpointView)
        if (query.apiKey === undefined) return json(c, 200, { data })
        const { dispatcher } = webhooks
        const queue = {
          waiting: dispatcher.waiting(query.apiKey),
          scheduled: dispatcher.scheduled(query.apiKey),
          limit: dispatcher.maxQueued,
        }
        return json(c, 200, { data, queue })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/webhooks/deliveries',
      summary: 'Every delivery attempt, newest first, with filters',
      tags,
      auth: 'admin',
      query: DeliveryQuerySchema,
      responses: {
        200: {
          description: 'Matching attempts',
          schema: lazySchema(() =>
            z.object({
              data: z.array(DeliveryViewSchema),
              totalCount: z.number(),
              capacity: z.number(),
            })
          ),
        },
      },
      handler(c, { query }) {
        const { limit, status, ...filter } = query
        const found = webhooks.log.search({
          ...filter,
          ...(status !== undefined ? { status: status.toLowerCase() } : {}),
          limit: limit === undefined ? 100 : Number(limit),
        })
        return json(c, 200, {
          data: found.data.map(deliveryView),
          totalCount: found.totalCount,
          capacity: webhooks.log.capacity,
        })
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/__admin/webhooks/:id',
      summary: 'Remove a webhook endpoint (its waiting deliveries are dropped)',
      tags,
      auth: 'admin',
      params: IdParams,
      responses: {
        200: { description: 'The removed endpoint', schema: EndpointEnvelope },
        404: { description: 'No such endpoint' },
      },
      handler(c, { params }) {
        const endpoint = endpointOf(params.id)
        webhooks.endpoints.remove(endpoint.id)
        return json(c, 200, { data: endpointView(endpoint) })
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/webhooks/:id/test',
      summary: 'Send a sample event to one endpoint (a global one needs apiKey)',
      tags,
      auth: 'admin',
      params: IdParams,
      query: OptionalApiKeyQuerySchema,
      body: TestBodySchema,
      responses: {
        202: {
          description: 'Queued: it goes out after this answer',
          schema: lazySchema(() =>
            z.object({ data: z.object({ eventId: z.string(), webhookId: z.string() }) })
          ),
        },
        400: { description: 'A global endpoint without apiKey' },
        404: { description: 'No such endpoint' },
      },
      async handler(c, { params, query, body }) {
        const endpoint = endpointOf(params.id)
        const apiKey = endpoint.apiKey ?? query.apiKey
        if (apiKey === undefined)
          throw badRequest(
            'this endpoint serves every key: name the environment the sample comes from with ?apiKey='
          )
        // The sample names the key's environment, built (from the scenario) if new.
        if (!fakerLoaded()) await loadFaker()
        const env = environmentFor(state, apiKey)
        const type = body?.type ?? 'message.sent'
        const sent = webhooks.test(endpoint, env, type, (id) => sampleMessageData(env, type, id))
        return json(c, 202, { data: sent })
      },
    }),
  ]
}
