import type { Logger } from '../log.js'
import type { MemoryBudget } from '../memory/budget.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { Environment } from '../tenancy/environment.js'
import { DEFAULT_EPOCH } from '../tenancy/clock.js'
import { createIdFactory, type IdFactory } from '../tenancy/ids.js'
import { createRng, type Rng } from '../tenancy/prng.js'
import { httpError } from '../errors.js'
import type { Obj } from '../objects.js'
import { createDeliveryLog, type DeliveryRecord } from './delivery-log.js'
import { createDispatcher } from './dispatcher.js'
import { createEndpointStore, MAX_ENDPOINTS_PER_SCOPE, type Endpoint } from './endpoints.js'
import { objectOf, type WebhookEventType } from './event-types.js'
import { failedMessageData, messageObject } from './mappers.js'
import { newSecret, svixId } from './signer.js'
import type { WebhookSink } from './sink.js'
import type { EndpointInput, ScenarioWebhook } from './webhooks.schemas.js'

/** An event built during a request, sent once the request answered. */
interface Pending {
  env: Environment
  endpoints: Endpoint[]
  eventId: string
  webhookId: string
  type: WebhookEventType
  body: string
  /** A message a step created: sent only if the message is still stored (a refused trigger takes it back). */
  messageId?: string
}

/** The seeded generators of one scope: a key's, or ('') the global endpoints'. */
interface ScopeIds {
  endpoints: Rng
  eventIds: IdFactory
  webhookIds: Rng
}

export interface WebhooksDeps {
  seed(): string
  /** The scenario's clock: global endpoints are dated by it. */
  now(): Date
  logger: Logger
  /** Told of each attempt logged. */
  recorded?(record: DeliveryRecord): void
  budget: MemoryBudget
  /** The key's live environment, if it has one. */
  environment(apiKey: string): Environment | undefined
}

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * Outbound webhooks: the endpoints (per key, or global), the events the environments tell of,
 * their delivery after the answer that caused them, and the log of every attempt.
 */
export function createWebhooks(deps: WebhooksDeps) {
  const endpoints = createEndpointStore()
  const log = createDeliveryLog()
  const dispatcher = createDispatcher({
    log,
    logger: deps.logger,
    clockOf: (apiKey) => deps.environment(apiKey)?.clock,
    fits: (bytes) => deps.budget.fits(bytes),
    registered: (endpoint) => endpoints.get(endpoint.id) === endpoint,
    ...(deps.recorded ? { recorded: deps.recorded } : {}),
    changed: () => deps.budget.set('webhooks', log.bytes() + dispatcher.bytes()),
  })
  const scopes = new Map<string, ScopeIds>()
  let pending: Pending[] = []
  let flushing = false
  let declared: readonly ScenarioWebhook[] = []

  function scope(apiKey = ''): ScopeIds {
    let ids = scopes.get(apiKey)
    if (!ids) {
      const seed = deps.seed()
      const events = createRng(`${seed}\u0000webhook-events\u0000${apiKey}`)
      ids = {
        endpoints: createRng(`${seed}\u0000webhook-endpoints\u0000${apiKey}`),
        eventIds: createIdFactory(events, Date.parse(DEFAULT_EPOCH)),
        webhookIds: events,
      }
      scopes.set(apiKey, ids)
    }
    return ids
  }

  /** The environment's public identifier (upstream's `environmentId` in the envelope). */
  function identifierOf(apiKey: string): string {
    const rng = createRng(`${deps.seed()}\u0000environment-identifier\u0000${apiKey}`)
    let text = ''
    for (let i = 0; i < 12; i++) text += ALPHANUMERIC[Math.floor(rng() * 62)]
    return text
  }

  function addEndpoint(
    input: EndpointInput,
    apiKey: string | undefined,
    source: Endpoint['source']
  ) {
    if (endpoints.inScope(apiKey) >= MAX_ENDPOINTS_PER_SCOPE)
      throw httpError(
        403,
        `novu-mock holds at most ${MAX_ENDPOINTS_PER_SCOPE} webhook endpoints ${apiKey === undefined ? 'for every key' : 'per API key'}: delete some with DELETE /__admin/webhooks/:id`
      )
    const ids = scope(apiKey)
    return endpoints.add({
      id: svixId('ep', ids.endpoints),
      url: input.url,
      events: input.events ? [...new Set(input.events)] : null,
      secret: input.secret ?? newSecret(ids.endpoints),
      ...(apiKey !== undefined ? { apiKey } : {}),
      source,
      createdAt: (apiKey === undefined
        ? deps.now()
        : (deps.environment(apiKey)?.clock.now() ?? deps.now())
      ).toISOString(),
    })
  }

  function declare(webhooks: readonly ScenarioWebhook[], onlyKey?: string) {
    for (const { apiKey, ...input } of webhooks)
      if (onlyKey === undefined || apiKey === onlyKey) addEndpoint(input, apiKey, 'scenario')
  }

  /** Builds the event's envelope now (its data as it is now) for the endpoints that take it. */
  function build(env: Environment, type: WebhookEventType, data: () => Obj, messageId?: string) {
    const targets = endpoints.forEvent(env.apiKey, type)
    if (!targets.length) return
    const ids = scope(env.apiKey)
    const eventId = `evt_${ids.eventIds()}`
    const envelope = {
      id: eventId,
      type,
      object: objectOf(type),
      data: data(),
      timestamp: env.clock.now().toISOString(),
      environmentId: identifierOf(env.apiKey),
    }
    pending.push({
      env,
      endpoints: targets,
      eventId,
      webhookId: svixId('msg', ids.webhookIds),
      type,
      body: JSON.stringify(envelope),
      ...(messageId !== undefined ? { messageId } : {}),
    })
  }

  /** Hands what the answered requests built to the dispatcher, in the order it was built. */
  function flush() {
    flushing = false
    const batch = pending
    pending = []
    for (const event of batch) {
      if (deps.environment(event.env.apiKey) !== event.env) continue
      if (event.messageId !== undefined && !event.env.messages.find(event.messageId)) continue
      for (const endpoint of event.endpoints) {
        if (endpoints.get(endpoint.id) !== endpoint) continue
        dispatcher.enqueue({
          apiKey: event.env.apiKey,
          endpoint,
          eventId: event.eventId,
          webhookId: event.webhookId,
          type: event.type,
          body: event.body,
          attempt: 1,
        })
      }
    }
  }

  function sinkFor(env: Environment): WebhookSink {
    return {
      emit: (type, data) => build(env, type, data),
      wants: (type) => endpoints.size() > 0 && endpoints.forEvent(env.apiKey, type).length > 0,
      messageAdded(message: Message) {
        if (!endpoints.size()) return
        if (message.status === 'sent') {
          build(env, 'message.sent', () => ({ object: messageObject(message) }), message._id)
          build(env, 'message.delivered', () => ({ object: messageObject(message) }), message._id)
        } else build(env, 'message.failed', () => failedMessageData(message), message._id)
      },
    }
  }

  return {
    endpoints,
    log,
    dispatcher,
    sinkFor,
    identifierOf,
    addEndpoint: (input: EndpointInput, apiKey?: string) => addEndpoint(input, apiKey, 'admin'),
    close: () => dispatcher.close(),
    /** After an answer: what the request built goes out once it is written. */
    afterAnswer() {
      if (!pending.length || flushing) return
      flushing = true
      setImmediate(flush)
    },
    /** A sample event to one endpoint, now (`POST /__admin/webhooks/:id/test`). */
    test(endpoint: Endpoint, env: Environment, type: WebhookEventType, data: (id: string) => Obj) {
      const ids = scope(env.apiKey)
      const objectId = ids.eventIds()
      const eventId = `evt_${objectId}`
      const body = JSON.stringify({
        id: eventId,
        type,
        object: objectOf(type),
        data: data(objectId),
        timestamp: env.clock.now().toISOString(),
        environmentId: identifierOf(env.apiKey),
      })
      const webhookId = svixId('msg', ids.webhookIds)
      pending.push({ env, endpoints: [endpoint], eventId, webhookId, type, body })
      return { eventId, webhookId }
    },
    /** The scenario's endpoints, declared anew (a scenario loaded or every key reset). */
    load(webhooks: readonly ScenarioWebhook[]) {
      declared = webhooks
      endpoints.clear()
      scopes.clear()
      pending = []
      log.clear()
      dispatcher.reset()
      declare(declared)
    },
    /** A key's endpoints, deliveries and ids back to the scenario's. */
    resetKey(apiKey: string) {
      endpoints.removeKey(apiKey)
      scopes.delete(apiKey)
      pending = pending.filter((p) => p.env.apiKey !== apiKey)
      log.clear(apiKey)
      dispatcher.reset(apiKey)
      declare(declared, apiKey)
    },
  }
}

export type Webhooks = ReturnType<typeof createWebhooks>
