import type { Environment } from '../tenancy/environment.js'
import type { Obj } from '../objects.js'
import type { WebhookEventType } from './event-types.js'

/** The message types a test send can carry. */
export const TEST_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.seen',
  'message.read',
] as const satisfies readonly WebhookEventType[]

/**
 * A test send's `data`: an in-app message of a `webhook-test` workflow in the key's
 * environment, shaped as a real one (nothing in the environment changes).
 */
export function sampleMessageData(env: Environment, type: WebhookEventType, id: string): Obj {
  const at = env.clock.now().toISOString()
  const failed = type === 'message.failed'
  const object = {
    _id: id,
    _templateId: id,
    _environmentId: env._environmentId,
    _organizationId: env._organizationId,
    _notificationId: id,
    subscriberId: 'webhook-test-subscriber',
    templateIdentifier: 'webhook-test',
    createdAt: at,
    updatedAt: at,
    archived: false,
    transactionId: `webhook-test-${id}`,
    channel: 'in_app',
    seen: type === 'message.seen' || type === 'message.read',
    read: type === 'message.read',
    providerId: 'novu',
    status: failed ? 'error' : 'sent',
    workflowId: 'webhook-test',
    stepId: 'in-app-step',
  }
  return failed ? { object, error: { message: 'A test of the webhook endpoint' } } : { object }
}
