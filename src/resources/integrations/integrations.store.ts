import { DEFAULT_EPOCH } from '../../tenancy/clock.js'
import { createIdFactory } from '../../tenancy/ids.js'
import { createRng } from '../../tenancy/prng.js'
import { duplicateId } from '../../tenancy/unique-ids.js'
import { DEFAULT_INTEGRATIONS, type Integration } from '../../delivery/integrations.js'

/** An integration as upstream stores it (the fields a scenario record may leave out filled in). */
export interface IntegrationDocument extends Integration {
  _id: string
  _environmentId: string
  _organizationId: string
  identifier: string
  name: string
  credentials: Record<string, unknown>
  priority: number
  primary: boolean
  conditions: unknown[]
  deleted: boolean
  createdAt: string
  updatedAt: string
  __v: number
  [field: string]: unknown
}

interface Owner {
  _environmentId: string
  _organizationId: string
}

/**
 * The ids of the integrations a new environment starts with come from a generator of their own,
 * made from the environment's id: taking them from the environment's generator would have moved
 * the id of every record created after.
 */
function seededIds(owner: Owner) {
  return createIdFactory(
    createRng(`${owner._environmentId}\u0000integrations`),
    Date.parse(DEFAULT_EPOCH)
  )
}

/** A declared record as stored: its own fields kept, the missing ones upstream's defaults. */
function documentOf(record: Integration & Record<string, unknown>, owner: Owner, id: () => string) {
  const at = (record.createdAt as string | undefined) ?? DEFAULT_EPOCH
  const doc: IntegrationDocument = {
    _id: (record._id as string | undefined)?.toLowerCase() ?? id(),
    ...owner,
    providerId: record.providerId,
    channel: record.channel,
    credentials: {},
    active: record.active,
    name: record.name ?? record.providerId,
    identifier: record.identifier ?? record.providerId,
    priority: 0,
    primary: false,
    conditions: [],
    deleted: false,
    createdAt: at,
    updatedAt: at,
    __v: 0,
  }
  return Object.assign(doc, record, {
    _id: doc._id,
    ...owner,
    name: doc.name,
    identifier: doc.identifier,
  })
}

/**
 * One environment's integrations: the delivery flow asks which provider a channel sends with,
 * the credential routes which integration a provider's credentials hang on. Kept in creation
 * order; writes only add.
 */
export function createIntegrationStore(
  records: readonly Integration[] = DEFAULT_INTEGRATIONS,
  identity: Owner
) {
  // The two ids only: the environment's identity also holds its API key and generation rules.
  const owner: Owner = {
    _environmentId: identity._environmentId,
    _organizationId: identity._organizationId,
  }
  const ids = seededIds(owner)
  const list: IntegrationDocument[] = []
  const byId = new Map<string, IntegrationDocument>()
  let version = 0

  function add(doc: IntegrationDocument) {
    if (byId.has(doc._id)) throw duplicateId('integrations', doc._id)
    list.push(doc)
    byId.set(doc._id, doc)
    version++
    return doc
  }
  for (const record of records)
    add(documentOf(record as Integration & Record<string, unknown>, owner, ids))
  const live = () => list.filter((i) => !i.deleted)
  const activeOf = (channel: string) => live().filter((i) => i.active && i.channel === channel)

  return {
    add,
    version: () => version,
    all: (): IntegrationDocument[] => list,
    get: (id: string) => byId.get(id),
    identifierTaken: (identifier: string) => live().some((i) => i.identifier === identifier),
    /** Whether the channel has an active provider (the workflow list's integration status). */
    hasActive: (channel: string) => activeOf(channel).length > 0,
    /**
     * The provider a channel step sends with: the active one the identifier names (email's
     * `overrides.email.integrationIdentifier`), else the channel's first active one.
     */
    select(channel: string, identifier?: string): IntegrationDocument | undefined {
      const candidates = activeOf(channel)
      if (identifier) return candidates.find((i) => i.identifier === identifier)
      return candidates[0]
    },
    /** The active provider of a chat or push channel credential. */
    forProvider: (channel: string, providerId: string) =>
      activeOf(channel).find((i) => i.providerId === providerId),
    /**
     * Upstream's lookup for a subscriber's credentials: the newest active integration of the
     * provider, of any channel, narrowed to the identifier when one is given.
     */
    newestActive(providerId: string, identifier?: string): IntegrationDocument | undefined {
      let newest: IntegrationDocument | undefined
      for (const i of live()) {
        if (!i.active || i.providerId !== providerId) continue
        if (identifier !== undefined && i.identifier !== identifier) continue
        // Among equal times, the later created.
        if (!newest || i.createdAt >= newest.createdAt) newest = i
      }
      return newest
    },
  }
}

export type IntegrationStore = ReturnType<typeof createIntegrationStore>
