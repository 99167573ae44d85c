import { CHANNELS, CHANNELS_WITH_TOOL } from '../../channels.js'
import { z } from 'zod'
import { httpError, notFound, type ApiError } from '../../errors.js'
import { field } from '../../http/validate.js'
import { isEnum } from '../../http/rules.js'
import type { MessageSubscriber } from './messages.store.js'
import { lazySchema } from '../../lazy-schema.js'

/** How the message routes differ between generations. */
export interface MessagesRules {
  channels: readonly string[]
  deleteByTransactionQuery: z.ZodType<{ channel?: string }>
  /** The subscriber as GET /v1/messages populates it into each message. */
  subscriber(subscriber: MessageSubscriber): Record<string, unknown>
  unknownSubscriber(subscriberId: string): ApiError
  /** Upstream dropped mongoose-delete in 2025: deleted messages are gone, not flagged. */
  hardDelete: boolean
}

const channelQuery = (channels: readonly string[]) =>
  z.object({
    channel: field<string>(
      'channel',
      [isEnum(channels)],
      { type: 'string', enum: [...channels] },
      { optional: true }
    ),
  })

export const messages2024: MessagesRules = {
  channels: CHANNELS,
  deleteByTransactionQuery: lazySchema(() => channelQuery(CHANNELS)),
  subscriber: ({ _id, firstName, lastName, avatar, subscriberId }) => ({
    _id,
    firstName,
    lastName,
    avatar,
    subscriberId,
    id: _id,
  }),
  unknownSubscriber: (id) => notFound(`Subscriber not found for id ${id}`),
  hardDelete: false,
}

export const messages2026: MessagesRules = {
  channels: CHANNELS_WITH_TOOL,
  deleteByTransactionQuery: lazySchema(() => channelQuery(CHANNELS_WITH_TOOL)),
  // The population widened so that @novu/api's SubscriberResponseDto parses.
  subscriber: (s) => ({
    _id: s._id,
    firstName: s.firstName,
    lastName: s.lastName,
    avatar: s.avatar,
    subscriberId: s.subscriberId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    _organizationId: s._organizationId,
    _environmentId: s._environmentId,
    deleted: false,
    id: s._id,
  }),
  unknownSubscriber: (id) => httpError(404, `Subscriber '${id}' was not found`),
  hardDelete: true,
}
