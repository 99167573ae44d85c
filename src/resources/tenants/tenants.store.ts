import { duplicateId } from '../../tenancy/unique-ids.js'

/** A tenant as upstream stores it (hard-deleted, no `deleted` field). */
export interface Tenant {
  _id: string
  identifier: string
  name: string
  data?: unknown
  _environmentId: string
  _organizationId: string
  createdAt: string
  updatedAt: string
  __v: number
}

/** One environment's tenants by identifier, kept in creation order. */
export function createTenantStore(initial: readonly Tenant[]) {
  const byIdentifier = new Map<string, Tenant>()
  const ids = new Set<string>()
  let version = 0
  function add(tenant: Tenant) {
    if (ids.has(tenant._id)) throw duplicateId('tenants', tenant._id)
    version++
    ids.add(tenant._id)
    byIdentifier.set(tenant.identifier, tenant)
    return tenant
  }
  initial.forEach(add)
  return {
    add,
    version: () => version,
    get: (identifier: string) => byIdentifier.get(identifier),
    /** Newest first, as upstream sorts its list (`createdAt` descending; ids rise with time among equals). */
    newestFirst: (): Tenant[] =>
      [...byIdentifier.values()].sort((a, b) =>
        a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a._id < b._id ? 1 : -1
      ),
    all: (): Tenant[] => [...byIdentifier.values()],
    update(
      tenant: Tenant,
      changes: Partial<Pick<Tenant, 'identifier' | 'name' | 'data'>>,
      at: string
    ) {
      version++
      if (changes.identifier !== undefined && changes.identifier !== tenant.identifier) {
        byIdentifier.delete(tenant.identifier)
        tenant.identifier = changes.identifier
        byIdentifier.set(tenant.identifier, tenant)
      }
      if (changes.name !== undefined) tenant.name = changes.name
      if (changes.data !== undefined) tenant.data = changes.data
      tenant.updatedAt = at
    },
    remove(tenant: Tenant) {
      version++
      byIdentifier.delete(tenant.identifier)
      ids.delete(tenant._id)
    },
  }
}

export type TenantStore = ReturnType<typeof createTenantStore>
