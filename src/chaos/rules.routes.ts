import type { AnyRoute } from '../http/route.js'
import type { MockState } from '../state.js'

/** The control plane's chaos routes: /__admin/rules and /__admin/latency. */
export function ruleRoutes(_state: MockState): AnyRoute[] {
  return []
}
