import { z } from 'zod'
import { httpError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { jsonHeapBytes } from '../../memory/estimate.js'
import type { Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import {
  integrationFor,
  removeCredentials,
  setCredentials,
  type CredentialsMode,
  type CredentialsRequest,
} from './credentials.js'
import type { Subscriber } from './subscribers.store.js'
import { live, render } from './subscribers-v1.routes.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * The v1 routes that change a subscriber's channels and online flag (the `@novu/node`
 * `setCredentials`/`deleteCredentials`, `@novu/api` `subscribers.credentials.*` and
 * `subscribers.properties.updateOnlineFlag` calls). No generation has a v2 form of them.
 */

const tags = ['Subscribers']
const params = lazySchema(() => z.object({ subscriberId: z.string() }))

/** The v1 document, with the online flag where the generation's schema gives every document one. */
function renderWithOnline(env: Environment, s: Subscriber, always = false): Obj {
  const out = render(s)
  if ((always || env.generation.subscriberChannels.showsOnlineDefault) && !('isOnline' in out)) {
    const { id, ...rest } = out
    return { ...rest, isOnline: s.isOnline ?? false, id }
  }
  return out
}

function credentialsRoute(method: 'PUT' | 'PATCH', mode: CredentialsMode) {
  return defineRoute<{ subscriberId: string }, Record<string, unknown>, CredentialsRequest>({
    method,
    path: '/v1/subscribers/:subscriberId/credentials',
    summary:
      mode === 'replace'
        ? "Set a provider's credentials (device tokens replaced)"
        : "Add to a provider's credentials (device tokens added)",
    tags,
    auth: 'apiKey',
    params,
    body: (g) => g.subscriberChannels.credentialsBody as unknown as z.ZodType<CredentialsRequest>,
    responses: {
      200: { description: 'The subscriber, in data' },
      400: { description: 'No such subscriber, no active integration, or too many device tokens' },
    },
    handler(c, { env, params, body }) {
      const subscriber = live(env, params.subscriberId)
      if (!subscriber) throw httpError(400, `SubscriberId: ${params.subscriberId} not found`)
      const integration = integrationFor(env, body)
      const bytes = jsonHeapBytes(body.credentials)
      env.memory.admit(bytes, "the subscriber's credentials")
      if (setCredentials(env, subscriber, body, integration, mode)) env.memory.grow(bytes)
      return json(c, 200, { data: renderWithOnline(env, subscriber) })
    },
  })
}

export const subscriberChannelRoutes = [
  credentialsRoute('PUT', 'replace'),
  credentialsRoute('PATCH', 'append'),
  defineRoute({
    method: 'DELETE',
    path: '/v1/subscribers/:subscriberId/credentials/:providerId',
    summary: "Remove every channel of a provider from a subscriber's credentials",
    tags,
    auth: 'apiKey',
    params: lazySchema(() => z.object({ subscriberId: z.string(), providerId: z.string() })),
    responses: {
      204: { description: 'Removed (also when the subscriber had none of that provider)' },
      404: { description: 'No such subscriber' },
    },
    handler(c, { env, params }) {
      const subscriber = live(env, params.subscriberId)
      if (!subscriber)
        throw env.generation.subscriberChannels.deleteCredentialsUnknown(params.subscriberId)
      removeCredentials(env, subscriber, params.providerId)
      return c.body(null, 204)
    },
  }),
  defineRoute<{ subscriberId: string }, Record<string, unknown>, { isOnline: boolean }>({
    method: 'PATCH',
    path: '/v1/subscribers/:subscriberId/online-status',
    summary: "Set a subscriber's online flag (going offline records when)",
    tags,
    auth: 'apiKey',
    params,
    body: (g) => g.subscriberChannels.onlineBody as z.ZodType<{ isOnline: boolean }>,
    responses: {
      200: { description: 'The subscriber, in data' },
      404: { description: 'Subscriber not found' },
    },
    handler(c, { env, params, body }) {
      const subscriber = live(env, params.subscriberId)
      if (!subscriber) throw httpError(404, 'Subscriber not found')
      subscriber.isOnline = body.isOnline
      if (!body.isOnline) subscriber.lastOnlineAt = env.now()
      subscriber.updatedAt = env.now()
      env.subscribers.touch()
      return json(c, 200, { data: renderWithOnline(env, subscriber, true) })
    },
  }),
]
