import {
  badRequest,
  CommandValidationError,
  InternalError,
  objectError,
  type FieldViolation,
} from '../../errors.js'
import { isDefined, isString } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import { defaultIdentifier } from '../subscribers/subscribers.seed.js'
import { arrayMaxSize, arrayMinSize } from './checks.js'
import { castSubscriberIds, newSubscription, newTopic } from './memberships.js'
import type { Subscription, Topic } from './topics.store.js'
import { subscriptionResult } from './topics.views.js'
import { topicNotFoundV2, VALID_ID } from './topics.paging.js'

/** Upstream's `TOPIC_SUBSCRIPTION_IDENTIFIER_MAX_LENGTH`. */
const IDENTIFIER_MAX_LENGTH = 512
/** Subscriptions one subscriber may hold in one topic. */
const MAX_SUBSCRIPTIONS_PER_SUBSCRIBER = 10

interface ItemError {
  subscriberId?: unknown
  identifier?: unknown
  code: string
  message: string
}

type Item = { identifier?: unknown; subscriberId?: unknown; name?: unknown }
type Result = ReturnType<typeof subscriptionResult>

export interface SubscriptionsAnswer {
  data: Result[]
  meta: { totalCount: number; successful: number; failed: number }
  errors?: ItemError[]
}

/** The controller's rule: every item failed, the request was well formed → 400 with it all. */
function answer(result: SubscriptionsAnswer): SubscriptionsAnswer {
  if (result.meta.failed > 0 && result.meta.successful === 0)
    // An HttpException thrown with an object that has no `message`: the filter names the status.
    throw objectError(400, {
      message: 'Api Exception Raised with status 400',
      ...JSON.parse(JSON.stringify(result)),
    })
  return result
}

/** The strings of a list become `{ subscriberId }`; anything else is passed on as it is. */
const toItems = (list: unknown[]): Item[] =>
  list.map((entry) => (typeof entry === 'string' ? { subscriberId: entry } : (entry as Item)))

/** `CreateSubscriptionsCommand`'s own checks: the list's size, then each item's fields. */
function checkCreateCommand(items: Item[]) {
  const violations: FieldViolation[] = []
  const sizes = [
    arrayMinSize(1, 'At least one subscription is required'),
    arrayMaxSize(100, 'Cannot subscribe more than 100 subscriptions at once'),
  ]
    .map((check) => check(items, 'subscriptions'))
    .filter((m): m is string => m !== undefined)
  if (sizes.length) violations.push({ property: 'subscriptions', messages: sizes, value: items })
  items.forEach((item, index) => {
    const fields: [keyof Item, boolean][] = [
      ['identifier', true],
      ['subscriberId', false],
      ['name', true],
    ]
    for (const [property, optional] of fields) {
      const value = item?.[property]
      if (optional && (value === undefined || value === null)) continue
      const messages = (optional ? [isString] : [isDefined, isString])
        .map((check) => check(value, property))
        .filter((m): m is string => m !== undefined)
      if (messages.length)
        violations.push({ property: `subscriptions.${index}.${property}`, messages, value })
    }
  })
  if (violations.length) throw new CommandValidationError('CreateSubscriptionsCommand', violations)
}

/**
 * The topic a subscription request goes to: found, else created (a new key must be a valid
 * one); a name renames an existing topic, and the answer keeps the topic as it was before.
 */
function upsertTopic(env: Environment, key: string, name: string | undefined): Topic {
  const topic = env.topics.get(key)
  if (!topic) {
    if (!VALID_ID.test(key))
      throw badRequest(
        `Invalid topic key: "${key}". Topic keys must contain only alphanumeric characters (a-z, A-Z, 0-9), hyphens (-), underscores (_), colons (:), or be a valid email address.`
      )
    return env.topics.put(newTopic(env, key, name))
  }
  if (name) env.topics.put({ ...topic, name, updatedAt: env.now() })
  return topic
}

/** POST /v2/topics/{topicKey}/subscriptions: upstream's CreateSubscriptionsUsecase, in order. */
export function createSubscriptions(
  env: Environment,
  topicKey: string,
  body: { subscriberIds?: unknown[]; subscriptions?: unknown[]; name?: string }
): SubscriptionsAnswer {
  const items = toItems(body.subscriptions || body.subscriberIds || [])
  checkCreateCommand(items)
  const total = items.length
  const errors: ItemError[] = []
  const valid = items.filter((item) => {
    const identifier = item.identifier as string | undefined
    if (identifier && identifier.length > IDENTIFIER_MAX_LENGTH) {
      errors.push({
        subscriberId: item.subscriberId,
        code: 'INVALID_SUBSCRIPTION_IDENTIFIER',
        message: `Subscription identifier must not exceed ${IDENTIFIER_MAX_LENGTH} characters.`,
      })
      return false
    }
    return true
  })
  const allFailed = () =>
    answer({ data: [], meta: { totalCount: total, successful: 0, failed: total }, errors })
  if (!valid.length) return allFailed()

  const topic = upsertTopic(env, topicKey, body.name)
  const wanted = valid.map((item) => item.subscriberId as string)
  const found = env.subscribers.findMany(wanted)
  const foundIds = new Set(found.map((s) => s.subscriberId))
  for (const subscriberId of wanted)
    if (!foundIds.has(subscriberId))
      errors.push({
        subscriberId,
        code: 'SUBSCRIBER_NOT_FOUND',
        message: `Subscriber with ID '${subscriberId}' could not be found.`,
      })
  if (!found.length) return allFailed()

  const itemFor = (subscriber: Subscriber) =>
    valid.find((item) => item.subscriberId === subscriber.subscriberId)
  const identifierFor = (subscriber: Subscriber) =>
    (itemFor(subscriber)?.identifier as string | undefined) ||
    defaultIdentifier(topicKey, subscriber.subscriberId)
  const identifiers = new Set(found.map(identifierFor))
  const ofTopic = env.topics.subscriptions.ofTopic(topic._id)
  const existing = ofTopic.filter((s) => identifiers.has(s.identifier))
  const taken = new Set(existing.map((s) => s._subscriberId))
  let toCreate = found.filter((s) => !taken.has(s._id))
  if (toCreate.length)
    toCreate = toCreate.filter((subscriber) => {
      const count = ofTopic.filter((s) => s._subscriberId === subscriber._id).length
      if (count < MAX_SUBSCRIPTIONS_PER_SUBSCRIBER) return true
      errors.push({
        subscriberId: subscriber.subscriberId,
        code: 'SUBSCRIPTION_LIMIT_EXCEEDED',
        message: `Subscriber ${subscriber.subscriberId} has reached the maximum allowed of ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} subscriptions for topic "${topic.key}"`,
      })
      return false
    })

  const byInternal = new Map(found.map((s) => [s._id, s]))
  const stored = (s: Subscription) => ({ createdAt: s.createdAt, updatedAt: s.updatedAt })
  const data = existing.map((s) =>
    subscriptionResult(s, topic, byInternal.get(s._subscriberId), stored(s))
  )

  // The bulk upsert, keyed on subscriber, topic and identifier: new documents, touched ones,
  // and identifiers another subscription of the environment already holds (write errors).
  const at = env.now()
  const created: Subscription[] = []
  const updated: Subscription[] = []
  for (const subscriber of toCreate) {
    const identifier = identifierFor(subscriber)
    const name = itemFor(subscriber)?.name as string | undefined
    const same = env.topics.subscriptions.byIdentifier(identifier)
    if (same && same._subscriberId === subscriber._id && same._topicId === topic._id) {
      updated.push({ ...same, ...(name !== undefined ? { name } : {}), updatedAt: at })
    } else if (same) {
      errors.push({
        subscriberId: subscriber.subscriberId,
        code: 'SUBSCRIPTION_CREATE_FAILED',
        message: `E11000 duplicate key error collection: topicsubscribers index: _environmentId_1_identifier_1 dup key: { _environmentId: ObjectId('${env._environmentId}'), identifier: ${JSON.stringify(identifier)} }`,
      })
    } else created.push(newSubscription(env, topic, subscriber, identifier, name, at))
  }
  env.topics.subscriptions.save([...created, ...updated])
  // A document the upsert created carries no dates in the answer: upstream maps them to ''.
  for (const s of created)
    data.push(
      subscriptionResult(s, topic, byInternal.get(s._subscriberId), {
        createdAt: '',
        updatedAt: '',
      })
    )
  // A touched one is read back as the subscriber's first subscription in the topic.
  for (const s of updated) {
    const first = env.topics.subscriptions
      .ofTopic(topic._id)
      .find((other) => other._subscriberId === s._subscriberId) as Subscription
    data.push(subscriptionResult(first, topic, byInternal.get(s._subscriberId), stored(first)))
  }
  return answer({
    data,
    meta: { totalCount: total, successful: data.length, failed: errors.length },
    ...(errors.length ? { errors } : {}),
  })
}

/** DELETE /v2/topics/{topicKey}/subscriptions: upstream's DeleteTopicSubscriptionsUsecase. */
export function deleteSubscriptions(
  env: Environment,
  topicKey: string,
  body: { subscriberIds?: unknown[]; subscriptions?: unknown[] }
): SubscriptionsAnswer {
  const topic = env.topics.get(topicKey)
  if (!topic) throw topicNotFoundV2(topicKey)
  const items = toItems(body.subscriptions || body.subscriberIds || [])
  if (!items.length) return answer({ data: [], meta: { totalCount: 0, successful: 0, failed: 0 } })
  if (items.some((item) => item === null || item === undefined))
    throw new InternalError("TypeError: Cannot read properties of null (reading 'identifier')")
  const total = items.length
  const toDelete = items.filter((item) => !!(item.identifier || item.subscriberId))
  if (!toDelete.length)
    return answer({
      data: [],
      meta: { totalCount: total, successful: 0, failed: total },
      errors: items.map((item) => ({
        subscriberId: item.subscriberId || 'unknown',
        identifier: item.identifier || 'unknown',
        code: 'INVALID_REQUEST',
        message: 'Subscription identifier is required.',
      })),
    })

  const identifiers = toDelete.map((i) => i.identifier).filter((id) => !!id)
  const subscriberIds = toDelete.map((i) => i.subscriberId).filter((id) => !!id)
  const ofTopic = env.topics.subscriptions.ofTopic(topic._id)
  const errors: ItemError[] = []
  const existing: Subscription[] = []
  const subscribers: Subscriber[] = []

  const byIdentifiers = () => {
    const wanted = new Set(castSubscriberIds(identifiers))
    const hits = ofTopic.filter((s) => wanted.has(s.identifier))
    const held = new Set(hits.map((s) => s.identifier))
    for (const identifier of identifiers) {
      if (held.has(String(identifier))) continue
      const item = toDelete.find((i) => i.identifier === identifier)
      errors.push({
        subscriberId: item?.subscriberId || 'unknown',
        code: 'SUBSCRIPTION_NOT_FOUND',
        message: `Subscription with identifier '${identifier}' not found.`,
      })
    }
    existing.push(...hits)
    for (const s of hits) {
      const subscriber = env.subscribers.byId(s._subscriberId)
      if (subscriber && !subscribers.includes(subscriber)) subscribers.push(subscriber)
    }
  }

  const bySubscriberIds = () => {
    const found = env.subscribers.findMany(castSubscriberIds(subscriberIds))
    const foundIds = new Set(found.map((s) => s.subscriberId))
    for (const subscriberId of subscriberIds)
      if (!foundIds.has(subscriberId as string))
        errors.push({
          subscriberId,
          code: 'SUBSCRIBER_NOT_FOUND',
          message: `Subscriber with ID '${subscriberId}' could not be found.`,
        })
    for (const s of found) if (!subscribers.includes(s)) subscribers.push(s)
    if (!found.length) return
    const internal = new Set(found.map((s) => s._id))
    const hits = ofTopic.filter((s) => internal.has(s._subscriberId))
    existing.push(...hits)
    const heldIdentifiers = new Set(hits.map((s) => s.identifier))
    const heldSubscribers = new Set(hits.map((s) => s._subscriberId))
    for (const item of items) {
      const subscriber = found.find((s) => s.subscriberId === item.subscriberId)
      if (!subscriber) continue
      if (item.identifier) {
        if (!heldIdentifiers.has(item.identifier as string))
          errors.push({
            subscriberId: subscriber.subscriberId,
            code: 'SUBSCRIPTION_NOT_FOUND',
            message: `Subscription with identifier '${item.identifier}' for subscriber '${subscriber.subscriberId}' not found.`,
          })
      } else if (!heldSubscribers.has(subscriber._id))
        errors.push({
          subscriberId: subscriber.subscriberId,
          code: 'SUBSCRIPTION_NOT_FOUND',
          message: `Subscription for subscriber '${subscriber.subscriberId}' not found.`,
        })
    }
  }

  if (identifiers.length) byIdentifiers()
  if (subscriberIds.length) bySubscriberIds()

  if (!existing.length)
    return answer({
      data: [],
      meta: { totalCount: total, successful: 0, failed: errors.length },
      errors,
    })
  const data = existing.map((s) =>
    subscriptionResult(
      s,
      topic,
      subscribers.find((sub) => sub._id === s._subscriberId),
      { createdAt: s.createdAt, updatedAt: s.updatedAt }
    )
  )
  env.topics.subscriptions.remove([...new Set(existing)])
  return answer({
    data,
    meta: { totalCount: total, successful: data.length, failed: errors.length },
    ...(errors.length ? { errors } : {}),
  })
}
