import type { Clock } from './clock.js'
import {
  createEnvironment,
  type Environment,
  type EnvironmentSpec,
  type Role,
} from './environment.js'
import type { ScenarioData } from '../scenarios/schema.js'
import type { GenerationName } from '../generations/generation.js'

/** What the environments are built from: the active scenario, compiled. */
export interface EnvironmentSource {
  seed: string
  data: ScenarioData
  keys: ReadonlyMap<string, Role>
  strict: boolean
  clock: Clock
  /** The generation environments answer in, and the keys the scenario pins to another. */
  generation: GenerationName
  generations: ReadonlyMap<string, GenerationName>
  /** Workflows one environment may hold where the generation limits them; 0: no limit. */
  maxWorkflows: number
}

export class EnvironmentLimitError extends Error {
  constructor(readonly limit: number) {
    super(`environment limit of ${limit} reached`)
  }
}

/**
 * One environment per API key, built on first use from the active scenario with a seed derived
 * from the global seed and the key: parallel tests that use different keys never share data.
 */
export function createEnvironments(
  initial: EnvironmentSource,
  options: { maxEnvironments: number }
) {
  let source = initial
  const live = new Map<string, Environment>()

  return {
    get source() {
      return source
    },
    /** The key's environment, built if new; undefined when strict mode does not know the key. */
    resolve(apiKey: string): Environment | undefined {
      const existing = live.get(apiKey)
      if (existing) return existing
      const role = source.keys.get(apiKey)
      if (!role && source.strict) return undefined
      if (live.size >= options.maxEnvironments)
        throw new EnvironmentLimitError(options.maxEnvironments)
      const env = build(apiKey, role ?? 'Development')
      live.set(apiKey, env)
      return env
    },
    peek: (apiKey: string) => live.get(apiKey),
    keys: () => [...live.keys()],
    size: () => live.size,
    /** Drops one environment (or all): the next request rebuilds it from the scenario. */
    reset(apiKey?: string) {
      if (apiKey === undefined) live.clear()
      else live.delete(apiKey)
    },
    replace(apiKey: string, env: Environment) {
      live.set(apiKey, env)
    },
    /** Swaps in a new scenario and drops every environment, in one step. */
    load(next: EnvironmentSource) {
      source = next
      live.clear()
    },
    build,
  }

  function build(
    apiKey: string,
    role: Role = source.keys.get(apiKey) ?? 'Development'
  ): Environment {
    return createEnvironment(environmentSpec(source, apiKey, role), source.data)
  }
}

/** What the key's environment is built with under the given source. */
export function environmentSpec(
  source: EnvironmentSource,
  apiKey: string,
  role: Role = source.keys.get(apiKey) ?? 'Development'
): EnvironmentSpec {
  return {
    apiKey,
    role,
    seed: source.seed,
    clock: source.clock,
    generation: source.generations.get(apiKey) ?? source.generation,
    maxWorkflows: source.maxWorkflows,
  }
}

export type Environments = ReturnType<typeof createEnvironments>
