/**
 * The environment's delivery integrations, as far as the trigger flow needs them: which channel
 * has an active provider, and which provider it is. A new Novu environment gets Novu's own
 * in-app, email and SMS providers; a scenario may declare others (`data.integrations`).
 */

export const DELIVERY_CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number]

export interface Integration {
  channel: DeliveryChannel
  providerId: string
  active: boolean
  name?: string
  identifier?: string
}

/** What a new environment has (upstream's CreateNovuIntegrations): in-app, email and SMS. */
export const DEFAULT_INTEGRATIONS: readonly Integration[] = [
  { channel: 'in_app', providerId: 'novu', name: 'Novu In-App', active: true },
  { channel: 'email', providerId: 'novu-email', name: 'Novu Email', active: true },
  { channel: 'sms', providerId: 'novu-sms', name: 'Novu SMS', active: true },
]

/** The channels a new environment can deliver on: the one default the workflow list shows too. */
export const DEFAULT_ACTIVE_CHANNELS: ReadonlySet<string> = new Set(
  DEFAULT_INTEGRATIONS.filter((i) => i.active).map((i) => i.channel)
)

export function createIntegrationSet(records: readonly Integration[] = DEFAULT_INTEGRATIONS) {
  const list = records.map((r) => ({ ...r }))
  const active = list.filter((i) => i.active)
  // By channel, in their order: each channel step of a trigger asks for its provider.
  const activeOf = new Map<string, Integration[]>()
  for (const integration of active)
    activeOf.set(integration.channel, [...(activeOf.get(integration.channel) ?? []), integration])
  return {
    all: (): Integration[] => list,
    /** Whether the channel has an active provider (the workflow list's integration status). */
    hasActive: (channel: string) => active.some((i) => i.channel === channel),
    /**
     * The provider a channel step sends with: the active one the identifier names (email's
     * `overrides.email.integrationIdentifier`), else the channel's first active one.
     */
    select(channel: string, identifier?: string): Integration | undefined {
      const candidates = activeOf.get(channel) ?? []
      if (identifier) return candidates.find((i) => i.identifier === identifier)
      return candidates[0]
    },
    /** The active provider of a chat or push channel credential. */
    forProvider: (channel: string, providerId: string) =>
      active.find((i) => i.channel === channel && i.providerId === providerId),
  }
}

export type IntegrationSet = ReturnType<typeof createIntegrationSet>
