import type { AnyRoute } from './http/route.js'
import { messageRoutes } from './resources/messages/messages.routes.js'
import { notificationGroupRoutes } from './resources/notification-groups/notification-groups.routes.js'
import { topicRoutes } from './resources/topics/topics.routes.js'
import { workflowRoutes } from './resources/workflows/workflows.routes.js'

/** Every Novu operation the mock serves, in one table that also feeds the OpenAPI document. */
export const NOVU_ROUTES: AnyRoute[] = [
  ...topicRoutes,
  ...notificationGroupRoutes,
  ...messageRoutes,
  ...workflowRoutes('/v1/workflows'),
  ...workflowRoutes('/v1/notification-templates'),
]
