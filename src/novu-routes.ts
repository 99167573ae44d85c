import type { AnyRoute } from './http/route.js'
import { messageRoutes } from './resources/messages/messages.routes.js'
import { notificationGroupRoutes } from './resources/notification-groups/notification-groups.routes.js'
import { topicRoutes } from './resources/topics/topics.routes.js'
import { topicV2Routes } from './resources/topics/topics-v2.routes.js'
import { subscriptionRoutes } from './resources/topics/subscriptions.routes.js'
import { subscriberRoutes } from './resources/subscribers/subscribers.routes.js'
import { workflowRoutes } from './resources/workflows/workflows.routes.js'
import { workflowV2Routes } from './resources/workflows-v2/workflows-v2.routes.js'
import { eventRoutes } from './resources/events/events.routes.js'
import { notificationRoutes } from './resources/notifications/notifications.routes.js'
import { subscriberV1Routes } from './resources/subscribers/subscribers-v1.routes.js'
import { preferenceRoutes } from './resources/preferences/preferences.routes.js'
import { inboxRoutes } from './resources/inbox/inbox.routes.js'
import { tenantRoutes } from './resources/tenants/tenants.routes.js'
import { inboxV2Routes } from './resources/inbox/inbox-v2.routes.js'
import { subscriberChannelRoutes } from './resources/subscribers/subscriber-channels.routes.js'
import { subscriberBulkRoutes } from './resources/subscribers/subscribers-bulk.routes.js'
import { integrationRoutes } from './resources/integrations/integrations.routes.js'
import { workflowEditRoutes } from './resources/workflows/workflow-edits.routes.js'
import { notificationStatsRoutes } from './resources/notifications/notification-stats.routes.js'
import { subscriptionByIdentifierRoutes } from './resources/topics/subscription-by-identifier.routes.js'

/** Every Novu operation the mock serves, in one table that also feeds the OpenAPI document. */
export const NOVU_ROUTES: AnyRoute[] = [
  ...topicRoutes,
  ...topicV2Routes,
  ...subscriptionRoutes,
  ...subscriptionByIdentifierRoutes,
  ...subscriberRoutes,
  ...notificationGroupRoutes,
  ...messageRoutes,
  ...workflowRoutes('/v1/workflows'),
  ...workflowRoutes('/v1/notification-templates'),
  ...workflowV2Routes,
  ...eventRoutes,
  // Before /v1/notifications/:notificationId, as upstream declares them.
  ...notificationStatsRoutes,
  ...notificationRoutes,
  ...subscriberV1Routes,
  ...preferenceRoutes,
  ...inboxRoutes,
  ...tenantRoutes,
  ...inboxV2Routes,
  ...subscriberBulkRoutes,
  ...subscriberChannelRoutes,
  ...integrationRoutes,
  ...workflowEditRoutes('/v1/workflows'),
  ...workflowEditRoutes('/v1/notification-templates'),
]
