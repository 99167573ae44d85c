import { isDeepStrictEqual } from 'node:util'
import { badRequest } from '../../errors.js'
import { isObj, type Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import type { IntegrationDocument } from '../integrations/integrations.store.js'
import { tooManyTokens } from './subscriber-channels.generations.js'
import type { Subscriber } from './subscribers.store.js'

/** One entry of a subscriber's `channels`, as upstream stores it. */
interface ChannelEntry {
  credentials: Obj
  _integrationId: string
  providerId: string
}

/** PUT replaces a channel's device tokens; PATCH (and a create's or trigger's `channels`) adds to them. */
export type CredentialsMode = 'replace' | 'append'

export interface CredentialsRequest {
  providerId: string
  integrationIdentifier?: string
  credentials: Obj
}

const unique = (tokens: unknown[]) => [...new Set(tokens)]

/** Upstream keeps only these credential keys, null ones skipped; the rest are dropped. */
function kept(credentials: Obj): Obj {
  const out: Obj = {}
  for (const name of ['webhookUrl', 'deviceTokens', 'channel'])
    if (credentials[name] !== undefined && credentials[name] !== null) out[name] = credentials[name]
  if (Array.isArray(out.deviceTokens)) out.deviceTokens = unique(out.deviceTokens)
  return out
}

/** The integration a provider's credentials hang on, or upstream's 400. */
export function integrationFor(env: Environment, request: CredentialsRequest): IntegrationDocument {
  const found = env.integrations.newestActive(request.providerId, request.integrationIdentifier)
  if (!found)
    throw badRequest(
      `Subscribers environment (${env._environmentId}) do not have active ${request.providerId} integration.`
    )
  return found
}

function checkTokens(env: Environment, tokens: unknown[]) {
  const limit = env.generation.subscriberChannels.maxDeviceTokens
  if (limit !== undefined && tokens.length > limit) throw tooManyTokens(tokens.length, limit)
}

/**
 * Upstream's UpdateSubscriberChannel once the integration is found: a new channel entry for
 * the integration, or the existing one merged (unchanged when the credentials are the same).
 * Checks everything before it writes. Returns whether the subscriber changed.
 */
export function setCredentials(
  env: Environment,
  subscriber: Subscriber,
  request: CredentialsRequest,
  integration: IntegrationDocument,
  mode: CredentialsMode
): boolean {
  const credentials = kept(request.credentials)
  const channels = (subscriber.channels ?? []) as ChannelEntry[]
  const at = channels.findIndex(
    (c) => isObj(c) && c.providerId === request.providerId && c._integrationId === integration._id
  )
  const sentTokens = Array.isArray(credentials.deviceTokens) ? credentials.deviceTokens : undefined
  if (at === -1) {
    checkTokens(env, sentTokens ?? [])
    channels.push({ credentials, _integrationId: integration._id, providerId: request.providerId })
  } else {
    const existing = channels[at] as ChannelEntry
    if (isDeepStrictEqual(credentials, existing.credentials)) return false
    // A body without deviceTokens leaves none: upstream's merge always writes the list it built.
    const old = Array.isArray(existing.credentials.deviceTokens)
      ? existing.credentials.deviceTokens
      : []
    const tokens =
      sentTokens === undefined
        ? []
        : mode === 'append'
          ? unique([...old, ...sentTokens])
          : sentTokens
    checkTokens(env, tokens)
    channels[at] = {
      credentials: { ...existing.credentials, ...credentials, deviceTokens: tokens },
      _integrationId: integration._id,
      providerId: request.providerId,
    }
  }
  subscriber.channels = channels
  subscriber.updatedAt = env.now()
  env.subscribers.touch()
  return true
}

/** Removes every channel entry of the provider, whichever integration it hangs on. */
export function removeCredentials(env: Environment, subscriber: Subscriber, providerId: string) {
  const channels = (subscriber.channels ?? []) as ChannelEntry[]
  const left = channels.filter((c) => !(isObj(c) && c.providerId === providerId))
  if (left.length === channels.length) return
  subscriber.channels = left
  env.subscribers.touch()
}
