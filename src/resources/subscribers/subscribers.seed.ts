import { createIdFactory, isObjectId, type IdFactory } from '../../tenancy/ids.js'
import { createRng } from '../../tenancy/prng.js'
import { DEFAULT_EPOCH } from '../../tenancy/clock.js'
import { ScenarioError, type ScenarioProblem } from '../../scenarios/loader.js'
import type { SubscriberRecord, TopicRecord } from '../../scenarios/schema.js'
import type { Subscription, Topic } from '../topics/topics.store.js'
import { SUBSCRIBER_FIELDS, type Subscriber } from './subscribers.store.js'

/**
 * Who exists in a seeded environment: the scenario's `subscribers`, then everyone a message or a
 * topic names. Declared and message subscribers take ids from the environment's generator (as
 * messages always did); the subscribers and subscriptions that only topics imply take theirs
 * from a second generator of the same seed, so that adding them moved no other record's id.
 */
export interface SubscriberSeeding {
  get(subscriberId: string): Subscriber | undefined
  /** Registers a subscriber a message record built. */
  add(subscriber: Subscriber): Subscriber
  all(): Subscriber[]
}

interface Owner {
  _environmentId: string
  _organizationId: string
}

/** The fields of a stored subscriber, in the order upstream's documents hold them. */
export function subscriberDocument(
  owner: Owner,
  fields: { _id: string; subscriberId: string; createdAt: string; updatedAt?: string } & Partial<
    Pick<Subscriber, (typeof SUBSCRIBER_FIELDS)[number]>
  >
): Subscriber {
  const doc: Subscriber = {
    _id: fields._id,
    _organizationId: owner._organizationId,
    _environmentId: owner._environmentId,
    subscriberId: fields.subscriberId,
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt ?? fields.createdAt,
  }
  for (const name of SUBSCRIBER_FIELDS)
    if (fields[name] !== undefined) (doc as unknown as Record<string, unknown>)[name] = fields[name]
  doc.channels = []
  doc.isOnline = false
  doc.deleted = false
  doc.__v = 0
  return doc
}

export function seedSubscribers(
  owner: Owner,
  newId: IdFactory,
  records: readonly SubscriberRecord[]
): SubscriberSeeding {
  const byExternal = new Map<string, Subscriber>()
  const problems: ScenarioProblem[] = []
  const first = new Map<string, number>()
  const ids = new Map<string, number>()
  records.forEach((record, index) => {
    const earlier = first.get(record.subscriberId)
    if (earlier !== undefined)
      problems.push({
        path: `data.subscribers.${index}.subscriberId`,
        message: `repeats the subscriberId of data.subscribers.${earlier}: subscriberIds are unique`,
      })
    else first.set(record.subscriberId, index)
    const id = record._id?.toLowerCase()
    if (id === undefined) return
    const sameId = ids.get(id)
    if (sameId !== undefined)
      problems.push({
        path: `data.subscribers.${index}._id`,
        message: `repeats the _id of data.subscribers.${sameId}: ids are unique`,
      })
    else ids.set(id, index)
  })
  if (problems.length) throw new ScenarioError('the records repeat a subscriber', problems)
  for (const record of records) if (record._id) newId.skipPast(record._id)
  for (const record of records) {
    const createdAt = record.createdAt ?? DEFAULT_EPOCH
    const doc = subscriberDocument(owner, {
      ...record,
      _id: (record._id ?? newId()).toLowerCase(),
      createdAt,
      updatedAt: record.updatedAt ?? createdAt,
    })
    // A declared or exported subscriber keeps its channel credentials as they are.
    if (Array.isArray(record.channels)) doc.channels = record.channels as unknown[]
    if (typeof record.isOnline === 'boolean') doc.isOnline = record.isOnline
    if (typeof record.lastOnlineAt === 'string') doc.lastOnlineAt = record.lastOnlineAt
    byExternal.set(doc.subscriberId, doc)
  }
  return {
    get: (subscriberId) => byExternal.get(subscriberId),
    add(subscriber) {
      byExternal.set(subscriber.subscriberId, subscriber)
      return subscriber
    },
    all: () => [...byExternal.values()],
  }
}

/** A name and an avatar for an implied subscriber, when the generated pool has them. */
export interface PoolMember {
  subscriberId: string
  firstName?: string
  lastName?: string
  avatar?: string
}

/** Upstream's default subscription identifier (no context). */
export const defaultIdentifier = (topicKey: string, subscriberId: string) =>
  `tk_${topicKey}:si_${subscriberId}`

/**
 * The topics' subscriptions: each topic record's `subscriptions`, or else its `subscribers`
 * (one default-identified subscription per distinct id). A subscriberId nobody else declared
 * becomes a subscriber too. Returns the topics with their `subscribers` lists rebuilt.
 */
export function seedSubscriptions(input: {
  seed: string
  apiKey: string
  owner: Owner
  topics: Topic[]
  /** The topic records, index for index with the first topics (the rest were generated). */
  records: readonly TopicRecord[]
  people: SubscriberSeeding
  pool: readonly PoolMember[]
}): { topics: Topic[]; subscriptions: Subscription[]; subscribers: Subscriber[] } {
  const { owner, topics, records, people } = input
  const implied = createIdFactory(
    createRng(`${input.seed}\u0000${input.apiKey}\u0000subscriptions`),
    Date.parse(DEFAULT_EPOCH)
  )
  for (const record of records)
    for (const s of record.subscriptions ?? []) if (s._id) implied.skipPast(s._id)
  for (const person of people.all()) implied.skipPast(person._id)
  const pool = new Map(input.pool.map((p) => [p.subscriberId, p]))
  const identifiers = new Map<string, string>()
  const problems: ScenarioProblem[] = []
  const subscriptions: Subscription[] = []

  const personFor = (subscriberId: string, at: string) => {
    const known = people.get(subscriberId)
    if (known) return known
    const { firstName, lastName, avatar } = pool.get(subscriberId) ?? {}
    return people.add(
      subscriberDocument(owner, {
        _id: implied(),
        subscriberId,
        firstName,
        lastName,
        avatar,
        createdAt: at,
      })
    )
  }

  const keys = new Map<string, number>()
  topics.forEach((topic, index) => {
    const earlier = keys.get(topic.key)
    if (earlier === undefined) keys.set(topic.key, index)
    else
      problems.push({
        path: index < records.length ? `data.topics.${index}.key` : 'data.generate.topics',
        message: `repeats the key of data.topics.${earlier}: topic keys are unique`,
      })
  })
  if (problems.length) throw new ScenarioError('the topics repeat a key', problems)
  const rebuilt = topics.map((topic, index) => {
    const record = records[index] as (TopicRecord & { subscribers?: unknown }) | undefined
    const wanted =
      record?.subscriptions ??
      [...new Set(record ? (record.subscribers ?? []) : topic.subscribers)].map((subscriberId) => ({
        subscriberId,
      }))
    const own: Subscription[] = []
    wanted.forEach((entry, position) => {
      const e = entry as {
        _id?: string
        subscriberId: string
        identifier?: string
        name?: string
        createdAt?: string
        updatedAt?: string
      }
      const identifier = e.identifier ?? defaultIdentifier(topic.key, e.subscriberId)
      const where = record?.subscriptions
        ? `data.topics.${index}.subscriptions.${position}`
        : `data.topics.${index}.subscribers`
      const earlier = identifiers.get(identifier)
      if (earlier !== undefined) {
        problems.push({
          path: where,
          message: `repeats the subscription identifier "${identifier}" of ${earlier}: identifiers are unique`,
        })
        return
      }
      identifiers.set(identifier, where)
      const createdAt = e.createdAt ?? topic.createdAt
      const person = personFor(e.subscriberId, topic.createdAt)
      own.push({
        _id: e._id ? e._id.toLowerCase() : implied(),
        _environmentId: owner._environmentId,
        _organizationId: owner._organizationId,
        _subscriberId: person._id,
        _topicId: topic._id,
        topicKey: topic.key,
        externalSubscriberId: person.subscriberId,
        identifier,
        ...(e.name !== undefined ? { name: e.name } : {}),
        createdAt,
        updatedAt: e.updatedAt ?? createdAt,
      })
    })
    subscriptions.push(...own)
    // A record with `subscriptions` is an export: its name is kept as it is, absent included.
    const named = record?.subscriptions
      ? record.name === undefined
        ? {}
        : { name: record.name }
      : topic.name === undefined
        ? {}
        : { name: topic.name }
    return {
      _id: topic._id,
      _environmentId: topic._environmentId,
      _organizationId: topic._organizationId,
      key: topic.key,
      ...named,
      subscribers: own.map((s) => s.externalSubscriberId),
      createdAt: topic.createdAt,
      updatedAt: topic.updatedAt,
    }
  })
  if (problems.length) throw new ScenarioError('the topics repeat a subscription', problems)
  const ids = new Set<string>()
  subscriptions.forEach((s) => {
    if (isObjectId(s._id) && ids.has(s._id))
      problems.push({ path: 'data.topics', message: `two subscriptions share the _id ${s._id}` })
    ids.add(s._id)
  })
  if (problems.length) throw new ScenarioError('the topics repeat a subscription id', problems)
  return { topics: rebuilt, subscriptions, subscribers: people.all() }
}
