import type { Context, Next } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'
import { CLIENT_CLOSED_REQUEST } from '../errors.js'
import { wait } from './delays.js'
import { statusFault } from './faults.js'
import { networkFault } from './network.js'
import type { Decision } from './rules.js'
import { MAX_DELAY_MS } from './rules.schemas.js'

/**
 * Applies the chaos rules to a Novu request (a step of the request pipeline, which asks
 * `state.rules.decide` first and comes here only when a rule fired or latency is set): the global
 * latency plus the delay of the newest matching rule, then that rule's fault, or the real route.
 *
 * @example
 * state.rules.add({ match: { method: 'DELETE', path: '/v1/messages/transaction/:id' }, fault: { status: 503 }, times: 2 })
 */
export async function applyChaos(
  state: MockState,
  c: Context<AppEnv>,
  next: Next,
  decision: Decision | undefined
): Promise<Response | void> {
  if (decision) c.set('rule', decision.ruleId)
  if (decision?.outcome && !('pass' in decision.outcome)) c.set('outcome', decision.outcome)
  const delayMs = Math.min(state.latency + (decision?.delayMs ?? 0), MAX_DELAY_MS)
  if (delayMs > 0) c.set('delayMs', Math.round(delayMs * 100) / 100)
  // The request's signal aborts when the client disconnects, which ends the wait early.
  if (delayMs > 0 && !(await wait(delayMs, c.req.raw.signal)))
    return new Response(null, { status: CLIENT_CLOSED_REQUEST })
  const outcome = decision?.outcome
  if (!outcome || 'pass' in outcome) return next()
  if ('status' in outcome) return statusFault(c, state, outcome)
  return networkFault(c, outcome, next)
}
