import type { z } from 'zod'
import {
  ApiError,
  CommandValidationError,
  errorMessages,
  RequestValidationError,
} from '../../errors.js'
import { randomUuid, type Rng } from '../../tenancy/prng.js'
import type { UpsertRules } from '../subscribers/subscriber-upsert.js'
import {
  BroadcastBody2024,
  BroadcastBody2026,
  BulkBody2024,
  BulkBody2026,
  TriggerBody2024,
  TriggerBody2026,
  type BroadcastBody,
  type BulkBody,
  type TriggerBody,
} from './events.schemas.js'
import { isObj, type Obj } from '../../objects.js'

export interface TriggerResult {
  acknowledged: true
  status: string
  error?: string[]
  transactionId?: string
}

/** How the trigger flow differs between generations (2024-10 = upstream 74a2e9a, 2026-08 = 3.19.0). */
export interface EventsRules {
  triggerBody: z.ZodType<TriggerBody>
  bulkBody: z.ZodType<BulkBody>
  broadcastBody: z.ZodType<BroadcastBody>
  /** A transaction id in the server's format, from the environment's seeded generator. */
  newTransactionId(rng: Rng, now: Date): string
  /** `trigger_not_active` and `no_tenant_found` carry the transaction id since 2025. */
  statusesCarryTransactionId: boolean
  /** 2024-10 answers `no_workflow_steps_defined` / `no_workflow_active_steps_defined`; later servers process. */
  answersStepStatuses: boolean
  /** 2024-10 refuses missing reserved and required variables over HTTP (400); later workers abort silently. */
  checksPayloadOverHttp: boolean
  /** Since 2025 an `agentId` names an agent, which the mock never has (400). */
  agents: boolean
  /** Since 2025 `ProcessBulkTriggerCommand` holds the 100-event limit (a 422). */
  checkBulkSize(events: unknown[]): void
  /** The command checks one bulk event meets before its trigger runs, as its failure message(s). */
  bulkEventErrors(event: Obj): string[] | undefined
  /** A bulk event's failure as its result element. */
  bulkError(error: unknown, event: Obj): TriggerResult
  /** Since 2025 the broadcast answers the trigger's real status. */
  broadcastReportsStatus: boolean
  /** Since 2026-07 the broadcast leaves the actor out. */
  broadcastExcludesActor: boolean
  /** 2024-10 throws on an unknown topic key after the single recipients were enqueued. */
  unknownTopicAbortsFanOut: boolean
  /** Since 2025 a topic recipient's `exclude` list is honoured. */
  topicExclude: boolean
  /** Since 2025 a transactionId already used is ignored (2024-10's check loses the race; see README). */
  ignoresDuplicateTransactions: boolean
  upsert: UpsertRules
  /** The email address an email step sends to. */
  emailRecipient(payload: Obj, overrides: Obj, subscriberEmail: unknown): string | undefined
  /** Days a message is kept (`expireAt`), per channel; none since late 2024. */
  messageRetentionDays?: (channel: string) => number
  /** Days a notification is kept after its waits; none since late 2024. */
  notificationRetentionDays?: number
  /** Messages carry `deleted` (mongoose-delete) in 2024-10. */
  softDeletedMessages: boolean
  /** The fields later servers add to messages and notifications (`severity`, `deliveredAt`, …). */
  severityFields: boolean
  /** Extra keys in the Handlebars context (`env` since 2025). */
  renderContext(role: string): Obj
}

const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Since mid-2025: `txn_` + the ObjectId-like 8 hex of the Unix time + 12 `[0-9a-z]`. */
function transactionId2026(rng: Rng, now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000)
  let tail = ''
  for (let i = 0; i < 12; i++) tail += LOWER_ALPHANUMERIC[Math.floor(rng() * 36)]
  return `txn_${(seconds >>> 0).toString(16).padStart(8, '0')}${tail}`
}

/** `e.response.message` as an array, or `e.message`: upstream's bulk catch. */
function caughtMessages(error: unknown): string[] {
  if (error instanceof ApiError) {
    const response = error.response
    const message = typeof response === 'string' ? response : response.message
    if (message !== undefined && message !== null && message !== '')
      return Array.isArray(message) ? message.map(String) : [String(message)]
    return [error.message]
  }
  if (error instanceof RequestValidationError) return error.messages
  if (error instanceof CommandValidationError) {
    const details = error.violations
      .map((v) => `${v.property}: ${v.messages.join(', ')}`)
      .join('; ')
    return [`Validation failed for ${error.command}: ${details}`]
  }
  return errorMessages(error)
}

const emailOf2024 = (payload: Obj, _overrides: Obj, stored: unknown) => {
  const sent = payload.email
  const address = sent || stored
  return typeof address === 'string' && address ? address : undefined
}

const emailOf2026 = (_payload: Obj, overrides: Obj, stored: unknown) => {
  const email = isObj(overrides.email) ? overrides.email : undefined
  const address = (email?.toRecipient as unknown) || stored
  return typeof address === 'string' && address ? address : undefined
}

export const events2024: EventsRules = {
  triggerBody: TriggerBody2024,
  bulkBody: BulkBody2024,
  broadcastBody: BroadcastBody2024,
  newTransactionId: (rng) => randomUuid(rng),
  statusesCarryTransactionId: false,
  answersStepStatuses: true,
  checksPayloadOverHttp: true,
  agents: false,
  checkBulkSize: () => undefined,
  // ParseEventRequestMulticastCommand: the subclass's `to` first, then the base's properties.
  bulkEventErrors(event) {
    const out: string[] = []
    if (event.to === undefined || event.to === null) out.push('to should not be null or undefined')
    if (event.name === undefined || event.name === null)
      out.push('identifier should not be null or undefined')
    if (typeof event.name !== 'string') out.push('identifier must be a string')
    if (event.payload === undefined || event.payload === null)
      out.push('payload should not be null or undefined')
    if (event.transactionId !== undefined && event.transactionId !== null)
      if (typeof event.transactionId !== 'string') out.push('transactionId must be a string')
    for (const property of ['actor', 'tenant'])
      if (
        event[property] !== undefined &&
        event[property] !== null &&
        typeof event[property] !== 'string' &&
        typeof event[property] !== 'object'
      )
        out.push(`nested property ${property} must be either object or array`)
    if (event.bridgeUrl !== undefined && event.bridgeUrl !== null)
      if (typeof event.bridgeUrl !== 'string') out.push('bridgeUrl must be a string')
    return out.length ? out : undefined
  },
  bulkError: (error) => ({ acknowledged: true, status: 'error', error: caughtMessages(error) }),
  broadcastReportsStatus: false,
  broadcastExcludesActor: false,
  unknownTopicAbortsFanOut: true,
  topicExclude: false,
  ignoresDuplicateTransactions: false,
  upsert: {
    nullClears: false,
    fields: ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'data'],
  },
  emailRecipient: emailOf2024,
  messageRetentionDays: (channel) => (channel === 'in_app' ? 365 : 30),
  notificationRetentionDays: 30,
  softDeletedMessages: true,
  severityFields: false,
  renderContext: () => ({}),
}

export const events2026: EventsRules = {
  triggerBody: TriggerBody2026,
  bulkBody: BulkBody2026,
  broadcastBody: BroadcastBody2026,
  newTransactionId: transactionId2026,
  statusesCarryTransactionId: true,
  answersStepStatuses: false,
  checksPayloadOverHttp: false,
  agents: true,
  checkBulkSize(events) {
    if (events.length > 100)
      throw new CommandValidationError('ProcessBulkTriggerCommand', [
        {
          property: 'events',
          messages: ['events must contain no more than 100 elements'],
          value: events,
        },
      ])
  },
  bulkEventErrors: (event) =>
    event.payload === undefined || event.payload === null
      ? [
          'Validation failed for ParseEventRequestMulticastCommand: payload: payload should not be null or undefined',
        ]
      : undefined,
  bulkError: (error, event) => ({
    acknowledged: true,
    status: 'error',
    error: caughtMessages(error),
    ...(typeof event.transactionId === 'string' ? { transactionId: event.transactionId } : {}),
  }),
  broadcastReportsStatus: true,
  broadcastExcludesActor: true,
  unknownTopicAbortsFanOut: false,
  topicExclude: true,
  ignoresDuplicateTransactions: true,
  upsert: {
    nullClears: true,
    fields: ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'],
  },
  emailRecipient: emailOf2026,
  softDeletedMessages: false,
  severityFields: true,
  renderContext: (role) => ({
    env: { name: role, type: role === 'Production' ? 'prod' : 'dev' },
  }),
}
