import type { Environment } from '../../tenancy/environment.js'
import { setCredentials } from './credentials.js'
import { isEmail, isLocale, isTimeZone } from './checks.js'
import { subscriberDocument } from './subscribers.seed.js'
import { SUBSCRIBER_FIELDS, type Subscriber, type SubscriberPatch } from './subscribers.store.js'
import { isObj, type Obj } from '../../objects.js'

/** How a generation's worker upserts the subscribers a trigger names (`to`, `actor`). */
export interface UpsertRules {
  /**
   * 2024-10: an update sets only the fields that are not null (`email` also when null, which
   * unsets it). Since 2025 every field sent, null included, is set.
   */
  nullClears: boolean
  /** The fields the worker's command knows: `timezone` since 2025. */
  fields: readonly string[]
}

/** `@Transform(({ value }) => value?.toString().trim())`, as the worker's command has it. */
export function normalizedSubscriberId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  try {
    return String(value).trim()
  } catch {
    return undefined
  }
}

/**
 * The worker's command checks (`CreateSubscriberCommand`, `CreateOrUpdateSubscriberCommand`): a
 * recipient that fails them is dropped, with no notification and no message.
 */
function passesCommand(fields: Obj, rules: UpsertRules): boolean {
  const text = (name: string) => {
    const value = fields[name]
    return value === undefined || value === null || typeof value === 'string'
  }
  if (!['firstName', 'lastName', 'phone', 'avatar'].every(text)) return false
  const optional = (name: string, check: (v: unknown, p: string) => string | undefined) =>
    fields[name] === undefined || fields[name] === null || !check(fields[name], name)
  if (!optional('email', isEmail) || !optional('locale', isLocale)) return false
  if (rules.fields.includes('timezone') && !optional('timezone', isTimeZone)) return false
  return true
}

/** The fields a recipient object sets on create or update, as the generation reads them. */
function patchFrom(fields: Obj, rules: UpsertRules, updating: boolean): SubscriberPatch {
  const patch: Obj = {}
  for (const name of SUBSCRIBER_FIELDS) {
    if (!rules.fields.includes(name)) continue
    const value = fields[name]
    if (value === undefined) continue
    // The older update skips nulls, except for email, whose null unsets it.
    if (updating && !rules.nullClears && value === null && name !== 'email') continue
    patch[name] = value
  }
  return patch as SubscriberPatch
}

/** lodash's isEqual for JSON values, as upstream's `subscriberNeedUpdate` compares. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isObj(a) && !Array.isArray(a)) return false
  if (!isObj(b) && !Array.isArray(b)) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => k in b && same((a as Obj)[k], (b as Obj)[k]))
}

/**
 * `channels` given to a create or a trigger's recipient: each applied as PATCH
 * /credentials applies it (tokens added). Upstream's missing-integration 400 comes after the
 * subscriber was written; here that entry is skipped.
 */
function upsertChannels(env: Environment, subscriber: Subscriber, sent: unknown) {
  if (!Array.isArray(sent)) return
  for (const entry of sent) {
    if (!isObj(entry) || typeof entry.providerId !== 'string') continue
    const request = {
      providerId: entry.providerId,
      credentials: isObj(entry.credentials) ? entry.credentials : {},
      ...(typeof entry.integrationIdentifier === 'string'
        ? { integrationIdentifier: entry.integrationIdentifier }
        : {}),
    }
    const integration = env.integrations.newestActive(
      request.providerId,
      request.integrationIdentifier
    )
    if (!integration) continue
    try {
      setCredentials(env, subscriber, request, integration, 'append')
    } catch {
      // Past the device-token limit: upstream's 400 after the write; the entry is skipped.
    }
  }
}

/**
 * The trigger's `ProcessSubscriber`: an unknown subscriberId is created from the recipient's
 * fields, a known one updated with them (only when something changes). Returns undefined when
 * the worker drops the recipient (an empty id, a field its command refuses).
 */
/** What a trigger is told of the subscribers it writes, to take them back if it is refused. */
export interface UpsertWatcher {
  createdSubscriber(subscriber: Subscriber): void
  changing(subscriber: Subscriber): void
}

export function upsertRecipient(
  env: Environment,
  recipient: Obj,
  rules: UpsertRules,
  at: string,
  watcher?: UpsertWatcher
): Subscriber | undefined {
  const subscriberId = normalizedSubscriberId(recipient.subscriberId)
  if (!subscriberId) return undefined
  if (!passesCommand(recipient, rules)) return undefined
  const existing = env.subscribers.get(subscriberId)
  // 2024-10 keeps a deleted subscriber stored: creating its id again fails (E11000), dropping it.
  if (existing?.deleted) return undefined
  if (!existing) {
    const created = env.subscribers.add(
      subscriberDocument(env, {
        _id: env.newId(),
        subscriberId,
        ...patchFrom(recipient, rules, false),
        createdAt: at,
      })
    )
    watcher?.createdSubscriber(created)
    upsertChannels(env, created, recipient.channels)
    return created
  }
  const patch = patchFrom(recipient, rules, true)
  const changed = Object.entries(patch).some(
    ([name, value]) => !same((existing as unknown as Obj)[name], value)
  )
  const channels = recipient.channels
  if (watcher && (changed || (Array.isArray(channels) && channels.length)))
    watcher.changing(existing)
  upsertChannels(env, existing, channels)
  if (changed) env.subscribers.update(existing, patch, at)
  return existing
}
