import { createClock, isMovable } from '../tenancy/clock.js'
import { createEnvironment } from '../tenancy/environment.js'
import { environmentSpec } from '../tenancy/environments.js'
import { createRng } from '../tenancy/prng.js'
import { compileScenario, type MockState } from '../state.js'
import type { Scenario } from './schema.js'

/** The key a dry run builds its probe environment with; no request can use it (it has a NUL). */
const PROBE_KEY = '\u0000probe'

/**
 * Checks that a scenario builds, then makes it the active one and resets every environment to
 * it. All checks run before anything changes: a bad scenario leaves the running state as it was.
 */
export function activateScenario(state: MockState, scenario: Scenario): void {
  const source = compileScenario(scenario, state.options)
  // Before anything is built: one environment of it has to fit in the memory budget.
  const estimate = state.environments.admitSource(source)
  // Explicit records are built once now, so that a bad one is refused here, not on first use.
  const explicitOnly = { ...source.data, generate: undefined }
  createEnvironment(
    { ...environmentSpec(source, PROBE_KEY, 'Development'), clock: createClock() },
    explicitOnly
  )
  state.rules.resetTo(scenario.rules, createRng(`${source.seed}\u0000chaos`))
  state.scenario = scenario
  state.environments.load(source, estimate)
  state.webhooks.load(scenario.webhooks)
  state.journal.clear()
}

/**
 * Rebuilds every environment from the active scenario and clears the journal and the rules the
 * scenario did not declare; with a key, does the same for that key only: its environment, the
 * rules that match only it (the scenario's come back fresh) and its journal entries.
 */
export function resetState(state: MockState, apiKey?: string): void {
  if (apiKey !== undefined) {
    state.environments.reset(apiKey)
    state.rules.resetKey(apiKey, state.scenario.rules)
    state.journal.clear({ apiKey })
    state.webhooks.resetKey(apiKey)
    return
  }
  state.environments.reset()
  // A clock moved forward for every key (POST /__admin/clock) goes back to the scenario's time.
  const clock = state.environments.source.clock
  if (isMovable(clock)) clock.rewind()
  state.rules.resetTo(
    state.scenario.rules,
    createRng(`${state.environments.source.seed}\u0000chaos`)
  )
  state.journal.clear()
  state.webhooks.load(state.scenario.webhooks)
  state.latency = state.options.latency
}
