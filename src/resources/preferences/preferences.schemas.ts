import { CHANNELS_WITH_TOOL } from '../../channels.js'
import { z } from 'zod'
import type { Generation } from '../../generations/generation.js'
import { field, fieldWith } from '../../http/validate.js'
import { isBoolean, isDefined, isEnum, isString } from '../../http/rules.js'
import { runChecks } from '../../http/validate.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

export interface ChannelPreferenceBody {
  type: string
  enabled: boolean
}

const nestedMessage = (path: string) => `nested property ${path} must be either object or array`

/** `ChannelPreference` at `path`: its type among the generation's channels, and a boolean. */
function channelPreferenceMessages(path: string, value: unknown, channels: readonly string[]) {
  if (value === null || typeof value !== 'object') return [nestedMessage(path)]
  const item = value as Obj
  return [
    ...runChecks([isDefined, isEnum(channels)], item.type, `${path}.type`),
    ...runChecks([isDefined, isBoolean], item.enabled, `${path}.enabled`),
  ]
}

const enabledField = lazySchema(() =>
  field<boolean>('enabled', [isBoolean], { type: 'boolean' }, { optional: true })
)

/** The channel order of the enum message: upstream's `ChannelTypeEnum`. */
const channelEnum = (g: Generation) =>
  CHANNELS_WITH_TOOL.filter((c) => g.preferences.channels.includes(c))

/** PATCH /v1/subscribers/:id/preferences/:workflow: `{channel?, enabled?}`. */
export const workflowPreferenceBody = (g: Generation) =>
  z.object({
    channel: fieldWith<ChannelPreferenceBody>(
      { type: 'object', description: '{type, enabled}' },
      (value) => channelPreferenceMessages('channel', value, channelEnum(g)),
      { optional: true }
    ),
    enabled: enabledField,
  })

/** PATCH /v1/subscribers/:id/preferences: `{enabled?, preferences?: ChannelPreference[]}`. */
export const globalPreferenceBody = (g: Generation) =>
  z.object({
    enabled: enabledField,
    preferences: fieldWith<ChannelPreferenceBody[]>(
      { type: 'array', items: { type: 'object' } },
      (value) => {
        if (typeof value !== 'object') return [nestedMessage('preferences')]
        if (!Array.isArray(value)) return []
        return value.flatMap((item, i) =>
          channelPreferenceMessages(`preferences.${i}`, item, channelEnum(g))
        )
      },
      { optional: true }
    ),
  })

/** PATCH /v2/subscribers/:id/preferences: `{channels?, workflowId?}` (channel values are the command's). */
export const PatchPreferencesBody = lazySchema(() =>
  z.object({
    channels: fieldWith<Obj>(
      { type: 'object', additionalProperties: { type: 'boolean' } },
      (value) => (typeof value === 'object' ? [] : [nestedMessage('channels')]),
      { optional: true }
    ),
    workflowId: field<string>('workflowId', [isString], { type: 'string' }, { optional: true }),
  })
)

export const LevelParams = lazySchema(() =>
  z.object({
    subscriberId: z.string(),
    parameter: field<'global' | 'template'>('parameter', [isEnum(['global', 'template'])], {
      type: 'string',
      enum: ['global', 'template'],
    }),
  })
)

export const CriticalityQuery = lazySchema(() =>
  z.object({
    criticality: field<string>(
      'criticality',
      [isEnum(['critical', 'nonCritical', 'all'])],
      { type: 'string', enum: ['critical', 'nonCritical', 'all'], default: 'nonCritical' },
      { optional: true }
    ),
  })
)

/** PATCH /v2/subscribers/:id/preferences/bulk: at most 100 `{workflowId, channels}`. */
export const BulkPreferencesBody = lazySchema(() =>
  z.object({
    preferences: fieldWith<{ workflowId: string; channels?: Obj }[]>(
      { type: 'array', maxItems: 100, items: { type: 'object' } },
      (value) => {
        if (!Array.isArray(value))
          return [
            'preferences must contain no more than 100 elements',
            'preferences must be an array',
          ]
        const messages =
          value.length > 100 ? ['preferences must contain no more than 100 elements'] : []
        value.forEach((item, i) => {
          if (item === null || typeof item !== 'object')
            return messages.push(nestedMessage(`preferences.${i}`))
          messages.push(
            ...runChecks(
              [isDefined, isString],
              (item as Obj).workflowId,
              `preferences.${i}.workflowId`
            )
          )
        })
        return messages
      }
    ),
  })
)
