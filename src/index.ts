export { createMock, type Mock } from './mock.js'
export { startMock, type RunningMock } from './server.js'
export { MockOptionsSchema, type MockOptions, type MockOptionsInput } from './config.js'
export {
  createAdminClient,
  AdminError,
  type AdminClient,
  type AdminClientOptions,
  type ScopedAdminClient,
  type Health,
  type ScenarioSummary,
  type ScenarioInput,
  type RuleInput,
  type RuleView,
  type StateData,
  type ClockView,
  type ClockMove,
  type LatencyInput,
  type JournalEntryView,
} from './admin/client.js'
export type { JournalEntry, JournalFilter } from './journal/journal.js'
export type {
  MessageFilter,
  OutboxMessage,
  OutboxPage,
  RenderedOutput,
} from './admin/outbox-client.js'
export type {
  WebhookEndpointInput,
  WebhookEndpoint,
  WebhookDelivery,
  DeliveryFilterInput,
} from './webhooks/webhooks-client.js'
export type { WebhookEventType } from './webhooks/event-types.js'
