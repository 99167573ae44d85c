import { isObj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Tenant } from './tenants.store.js'
import { same } from '../subscribers/subscriber-upsert.js'

/** A trigger's `tenant`: the identifier itself, or an object's `identifier`. */
export const tenantIdentifier = (tenant: unknown): unknown =>
  typeof tenant === 'string' ? tenant : isObj(tenant) ? tenant.identifier : undefined

/**
 * Upstream's ProcessTenant: a trigger's tenant object with a truthy `name` or `data` other than
 * the stored ones updates the stored tenant, which the messages then render.
 */
export function updateTenant(env: Environment, sent: unknown) {
  if (!isObj(sent)) return
  const tenant = env.tenants.get(String(sent.identifier))
  if (!tenant) return
  const name =
    typeof sent.name === 'string' && sent.name && sent.name !== tenant.name ? sent.name : undefined
  const data = sent.data && !same(sent.data, tenant.data) ? sent.data : undefined
  if (name === undefined && data === undefined) return
  env.tenants.update(tenant, { ...(name ? { name } : {}), ...(data ? { data } : {}) }, env.now())
}

/** The stored tenant a job names, as the worker passes it to the templates (`{{tenant.name}}`). */
export function tenantOfJob(env: Environment, jobTenant: unknown): Tenant | undefined {
  if (jobTenant === undefined || jobTenant === null) return undefined
  const identifier = tenantIdentifier(jobTenant)
  return identifier === undefined ? undefined : env.tenants.get(String(identifier))
}
