import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'
import { CLIENT_CLOSED_REQUEST } from '../errors.js'
import { wait } from './delays.js'
import { statusFault } from './faults.js'
import { networkFault } from './network.js'
import type { Decision } from './rules.js'
import { MAX_DELAY_MS } from './rules.schemas.js'

/** The request's remaining steps: its answer, or its failure rendered. */
type Rest = () => Response | Promise<Response>

/** What chaos does around the rest of a request: a delay, a fault, or both. */
export type Chaos = (rest: Rest) => Promise<Response>

/**
 * The chaos step of a Novu request (serve.ts): undefined when no rule fires and no latency is set,
 * so that the request goes on untouched (and synchronously); else what runs the rest under the
 * global latency plus the delay of the newest matching rule, then that rule's fault, or the rest.
 *
 * @example
 * state.rules.add({ match: { method: 'DELETE', path: '/v1/messages/transaction/:id' }, fault: { status: 503 }, times: 2 })
 */
export function chaosFor(state: MockState, c: Context<AppEnv>): Chaos | undefined {
  const decision = state.rules.decide(c.req)
  if (!decision && !(state.latency > 0)) return undefined
  return (rest) => applyChaos(state, c, decision, rest)
}

async function applyChaos(
  state: MockState,
  c: Context<AppEnv>,
  decision: Decision | undefined,
  rest: Rest
): Promise<Response> {
  if (decision) c.set('rule', decision.ruleId)
  if (decision?.outcome && !('pass' in decision.outcome)) c.set('outcome', decision.outcome)
  const delayMs = Math.min(state.latency + (decision?.delayMs ?? 0), MAX_DELAY_MS)
  if (delayMs > 0) c.set('delayMs', Math.round(delayMs * 100) / 100)
  // The request's signal aborts when the client disconnects, which ends the wait early.
  if (delayMs > 0 && !(await wait(delayMs, c.req.raw.signal)))
    return new Response(null, { status: CLIENT_CLOSED_REQUEST })
  const outcome = decision?.outcome
  if (!outcome || 'pass' in outcome) return rest()
  if ('status' in outcome) return statusFault(c, state, outcome)
  return networkFault(c, outcome, rest)
}
