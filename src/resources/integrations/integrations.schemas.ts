import { z } from 'zod'
import { field } from '../../http/validate.js'
import {
  isArray,
  isBoolean,
  isDefined,
  isEnum,
  isMongoId,
  isObject,
  isString,
  nestedObjects,
} from '../../http/rules.js'
import { CHANNELS, type Channel } from '../../channels.js'
import { lazySchema } from '../../lazy-schema.js'

const optional = { optional: true } as const

/** Upstream's CreateIntegrationRequestDto, in its declaration order. */
export const CreateIntegrationBodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isString], { type: 'string' }, optional),
    identifier: field<string>('identifier', [isString], { type: 'string' }, optional),
    _environmentId: field<string>('_environmentId', [isMongoId], { type: 'string' }, optional),
    providerId: field<string>('providerId', [isDefined, isString], { type: 'string' }),
    channel: field<Channel>('channel', [isDefined, isEnum(CHANNELS)], {
      type: 'string',
      enum: [...CHANNELS],
    }),
    credentials: field<Record<string, unknown>>(
      'credentials',
      [nestedObjects],
      { type: 'object', additionalProperties: true },
      optional
    ),
    active: field<boolean>('active', [isBoolean], { type: 'boolean', default: false }, optional),
    check: field<boolean>('check', [isBoolean], { type: 'boolean' }, optional),
    conditions: field<unknown[]>('conditions', [isArray], { type: 'array' }, optional),
    configurations: field<Record<string, unknown>>(
      'configurations',
      [isObject],
      { type: 'object', additionalProperties: true },
      optional
    ),
  })
)

export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBodySchema>
