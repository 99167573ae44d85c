import type { AnyRoute } from '../http/route.js'
import type { MockState } from '../state.js'
import { ruleRoutes } from '../chaos/rules.routes.js'

/** Every control-plane route under /__admin. */
export function adminRoutes(state: MockState): AnyRoute[] {
  return [...ruleRoutes(state)]
}
