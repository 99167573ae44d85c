import type { Channel } from '../channels.js'
/**
 * The environment's delivery integrations, as far as the trigger flow needs them: which channel
 * has an active provider, and which provider it is. A new Novu environment gets Novu's own
 * in-app, email and SMS providers; a scenario may declare others (`data.integrations`).
 */

export interface Integration {
  channel: Channel
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
