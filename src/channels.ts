/**
 * Novu's channels, once. The set is one fact; the orders below are upstream's too, because
 * answers and validation messages list channels in them.
 */

/** The channels a step delivers on, in upstream's `ChannelTypeEnum` order. */
export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const
export type Channel = (typeof CHANNELS)[number]

/** The enum with the `tool` channel that servers since 2025 accept. */
export const CHANNELS_WITH_TOOL = [...CHANNELS, 'tool'] as const

const channelSet: ReadonlySet<string> = new Set(CHANNELS)
export const isChannel = (value: unknown): value is Channel =>
  typeof value === 'string' && channelSet.has(value)

/** The order of a preference's channels as Mongoose's `preferenceSettings` schema keeps them. */
export const SETTINGS_ORDER = ['email', 'sms', 'in_app', 'chat', 'push'] as const
export const SETTINGS_ORDER_WITH_TOOL = [...SETTINGS_ORDER, 'tool'] as const

/** The order of the channels of a 2025 workflow's `preferences` (upstream's defaults object). */
export const WORKFLOW_PREFERENCES_ORDER = [
  'in_app',
  'sms',
  'email',
  'push',
  'chat',
  'tool',
] as const

/** The properties of the v2 preferences DTO's `channels`, in the class's order. */
export const PREFERENCES_DTO_ORDER = ['email', 'sms', 'in_app', 'push', 'chat', 'tool'] as const
