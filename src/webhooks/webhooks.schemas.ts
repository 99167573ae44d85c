import { z } from 'zod'
import { WEBHOOK_EVENT_TYPES } from './event-types.js'
import { isValidSecret } from './signer.js'
import { lazySchema } from '../lazy-schema.js'

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const endpointInput = () =>
  z.strictObject({
    url: z
      .string()
      .max(2048)
      .refine(isHttpUrl, 'url must be an http:// or https:// URL')
      .meta({ description: "the consumer's webhook handler" }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .max(WEBHOOK_EVENT_TYPES.length * 2)
      .optional()
      .meta({ description: 'the event types it takes; left out: every type' }),
    secret: z
      .string()
      .max(200)
      .refine(isValidSecret, 'secret must be "whsec_" and the base64 of 24 to 64 bytes')
      .optional()
      .meta({ description: 'whsec_…; left out: one made from the seed' }),
  })

export const EndpointInputSchema = lazySchema(endpointInput)

/** A scenario's `webhooks` entry: an endpoint, for one key or (no apiKey) every key. */
export const ScenarioWebhookSchema = lazySchema(() =>
  endpointInput().extend({
    apiKey: z.string().min(1).max(256).optional(),
  })
)

export type EndpointInput = z.infer<typeof EndpointInputSchema>
export type ScenarioWebhook = z.infer<typeof ScenarioWebhookSchema>

export const EndpointViewSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    url: z.string(),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .nullable()
      .meta({ description: 'null: every type' }),
    secret: z.string(),
    apiKey: z.string().nullable().meta({ description: 'redacted; null: serves every key' }),
    source: z.enum(['admin', 'scenario']),
    createdAt: z.string(),
    failing: z.boolean().meta({ description: 'whether its last attempt failed' }),
    lastAttempt: z
      .object({ at: z.string(), status: z.number().nullable(), ok: z.boolean() })
      .optional(),
  })
)

export const DeliveryQuerySchema = lazySchema(() =>
  z.object({
    apiKey: z.string().max(256).optional().meta({ description: "only this key's deliveries" }),
    endpoint: z.string().max(64).optional().meta({ description: 'only to this endpoint id' }),
    type: z.string().max(64).optional().meta({ description: 'only this event type' }),
    eventId: z.string().max(64).optional().meta({ description: 'only this event (evt_…)' }),
    status: z
      .string()
      .regex(
        /^(delivered|retrying|failed|dropped|[1-5]xx|\d{3})$/i,
        'an outcome (delivered, retrying, failed, dropped), a status such as 500, or a class such as 5xx'
      )
      .optional(),
    limit: z
      .string()
      .regex(/^\d{1,6}$/, 'a whole number')
      .optional()
      .meta({ description: 'at most this many, newest first (default 100)' }),
  })
)

export const DeliveryViewSchema = lazySchema(() =>
  z.looseObject({
    id: z.number(),
    at: z.string(),
    clockAt: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    webhookId: z.string(),
    type: z.string(),
    attempt: z.number(),
    status: z.number().nullable(),
    outcome: z.enum(['delivered', 'retrying', 'failed', 'dropped']),
    durationMs: z.number(),
    body: z.string(),
  })
)
