import { ScenarioError, type ScenarioProblem } from '../../scenarios/loader.js'
import type { PreferenceRecord, TenantRecord } from '../../scenarios/schema.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import type { Tenant } from '../tenants/tenants.store.js'
import type { Preference } from './preferences.store.js'

interface Owner {
  _environmentId: string
  _organizationId: string
}

/**
 * A scenario's preferences: each names a seeded subscriber and, unless global, a seeded
 * workflow by `_id` or trigger identifier. A name that matches nothing refuses the scenario.
 */
export function seedPreferences(
  records: readonly PreferenceRecord[],
  subscribers: readonly Subscriber[],
  workflows: readonly Workflow[],
  newId: () => string,
  at: string
): Preference[] {
  const problems: ScenarioProblem[] = []
  const bySubscriberId = new Map(subscribers.map((s) => [s.subscriberId, s]))
  const out: Preference[] = []
  records.forEach((record, index) => {
    const path = `data.preferences.${index}`
    const subscriber = bySubscriberId.get(record.subscriberId)
    if (!subscriber)
      return problems.push({
        path: `${path}.subscriberId`,
        message: 'names no subscriber of the data',
      })
    const named = record.workflowId
    const workflow = named
      ? workflows.find((w) => w._id === named || w.triggers?.[0]?.identifier === named)
      : undefined
    // 2024-10 keeps a record whose workflow was never found (its PATCH writes before it looks).
    const stray = named && !workflow && /^[0-9a-fA-F]{24}$/.test(named) ? named : undefined
    if (named && !workflow && !stray)
      return problems.push({ path: `${path}.workflowId`, message: 'names no workflow of the data' })
    out.push({
      _id: record._id ?? newId(),
      _subscriberId: subscriber._id,
      subscriberId: subscriber.subscriberId,
      ...(workflow || stray ? { _templateId: workflow?._id ?? stray } : {}),
      enabled: record.enabled ?? true,
      channels: { ...record.channels },
      createdAt: record.createdAt ?? at,
      updatedAt: record.updatedAt ?? record.createdAt ?? at,
    })
  })
  if (problems.length) throw new ScenarioError('a preference names what the data lacks', problems)
  return out
}

/** A scenario's tenants, in file order. */
export function seedTenants(
  records: readonly TenantRecord[],
  owner: Owner,
  newId: () => string,
  at: string
): Tenant[] {
  return records.map((r) => ({
    _id: r._id ?? newId(),
    identifier: r.identifier,
    name: r.name,
    ...(r.data !== undefined ? { data: r.data } : {}),
    ...owner,
    createdAt: r.createdAt ?? at,
    updatedAt: r.updatedAt ?? r.createdAt ?? at,
    __v: 0,
  }))
}
