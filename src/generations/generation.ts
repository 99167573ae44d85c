import type { ApiError } from '../errors.js'
import type { ErrorFilter } from './error-filters.js'
import type { IdentifierRules } from './slugs.js'
import type { TopicsRules } from '../resources/topics/topics.generations.js'
import type { WorkflowsRules } from '../resources/workflows/workflows.generations.js'
import type { WorkflowsV2Rules } from '../resources/workflows-v2/workflows-v2.generations.js'
import type { MessagesRules } from '../resources/messages/messages.generations.js'
import type { SubscribersRules } from '../resources/subscribers/subscribers.generations.js'
import type { EventsRules } from '../resources/events/events.generations.js'
import type { SubscribersV1Rules } from '../resources/subscribers/subscribers-v1.generations.js'
import type { NotificationsRules } from '../resources/notifications/notifications.generations.js'
import type { PreferencesRules } from '../resources/preferences/preferences.generations.js'
import type { InboxRules } from '../resources/inbox/inbox.generations.js'
import type { SubscriberChannelsRules } from '../resources/subscribers/subscriber-channels.generations.js'
import type { WorkflowEditRules } from '../resources/workflows/workflow-edits.generations.js'

export const GENERATION_NAMES = ['2026-08', '2024-10'] as const
export type GenerationName = (typeof GENERATION_NAMES)[number]
/** What production answers today. */
export const DEFAULT_GENERATION: GenerationName = '2026-08'

/**
 * Everything that differs between two releases of the real server, chosen once per environment.
 * Routes consult it where the releases differ; no route compares version strings.
 */
export interface Generation {
  name: GenerationName
  /** One line for the banner, health and the OpenAPI document. */
  description: string
  errors: ErrorFilter
  /** The JSON body limit of upstream's extended routes (workflows, events, layouts, bridge). */
  largeBodyLimit: number
  /** Path prefixes beyond the v1 ones that get that limit (`/v2/workflows` since 2025). */
  largeBodyPrefixes: readonly string[]
  payloadTooLarge(): ApiError
  identifiers: IdentifierRules
  topics: TopicsRules
  workflows: WorkflowsRules
  workflowsV2: WorkflowsV2Rules
  messages: MessagesRules
  subscribers: SubscribersRules
  subscribersV1: SubscribersV1Rules
  events: EventsRules
  notifications: NotificationsRules
  preferences: PreferencesRules
  inbox: InboxRules
  subscriberChannels: SubscriberChannelsRules
  workflowEdits: WorkflowEditRules
}

/** A route part that differs by generation, or one value for both. */
export type PerGeneration<T> = T | ((generation: Generation) => T)

export function resolveFor<T>(value: PerGeneration<T>, generation: Generation): T {
  return typeof value === 'function' ? (value as (g: Generation) => T)(generation) : value
}
