import { InternalError } from '../../errors.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import { defaultIdentifier } from '../subscribers/subscribers.seed.js'
import type { Subscription, Topic } from './topics.store.js'

/** A new topic document of the environment, timestamped now. */
export function newTopic(env: Environment, key: string, name: string | null | undefined): Topic {
  const at = env.now()
  return {
    _id: env.newId(),
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    key,
    ...(name !== undefined ? { name } : {}),
    subscribers: [],
    createdAt: at,
    updatedAt: at,
  }
}

/** A new subscription document of the environment. */
export function newSubscription(
  env: Environment,
  topic: Topic,
  subscriber: Subscriber,
  identifier: string,
  name: string | undefined,
  at: string
): Subscription {
  return {
    _id: env.newId(),
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    _subscriberId: subscriber._id,
    _topicId: topic._id,
    topicKey: topic.key,
    externalSubscriberId: subscriber.subscriberId,
    identifier,
    ...(name !== undefined ? { name } : {}),
    createdAt: at,
    updatedAt: at,
  }
}

/**
 * A `subscriberId: { $in: [...] }` query's values as Mongoose casts them for a String path:
 * numbers and booleans become text, null matches nothing, and anything else is a CastError
 * (upstream's 500).
 */
export function castSubscriberIds(values: readonly unknown[]): (string | null)[] {
  return values.map((value) => {
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    if (value === null || value === undefined) return null
    throw new InternalError(
      'CastError: Cast to string failed for a value of the subscriberId $in list'
    )
  })
}

/**
 * Upstream's membership upsert: a default-identified subscription per subscriber, created, or
 * touched (its `updatedAt`) when it exists. An identifier another subscription holds is a
 * write error the v1 route does not report: skipped.
 */
export function upsertDefaultSubscriptions(
  env: Environment,
  topic: Topic,
  subscribers: readonly Subscriber[]
): Subscription[] {
  const at = env.now()
  const saved: Subscription[] = []
  for (const subscriber of subscribers) {
    const identifier = defaultIdentifier(topic.key, subscriber.subscriberId)
    const existing = env.topics.subscriptions.byIdentifier(identifier)
    if (!existing) saved.push(newSubscription(env, topic, subscriber, identifier, undefined, at))
    else if (existing._subscriberId === subscriber._id && existing._topicId === topic._id)
      saved.push({ ...existing, updatedAt: at })
  }
  env.topics.subscriptions.save(saved)
  return saved
}
