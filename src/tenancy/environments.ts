import { httpError, MockRefusal } from '../errors.js'
import type { UnknownWorkflows } from '../config.js'
import type { Clock } from './clock.js'
import {
  createEnvironment,
  type Environment,
  type EnvironmentSpec,
  type Role,
} from './environment.js'
import type { ScenarioData } from '../scenarios/schema.js'
import type { Message } from '../resources/messages/messages.store.js'
import { ScenarioError } from '../scenarios/loader.js'
import {
  createMemoryBudget,
  DEFAULT_MAX_MEMORY_MB,
  JOURNAL_ENTRY_BYTES,
  megabytes,
} from '../memory/budget.js'
import { environmentBytes, jsonHeapBytes } from '../memory/estimate.js'
import { cacheBytes, clearCaches, releaseCaches } from '../cache.js'
import type { GenerationName } from '../generations/generation.js'
import { DEFAULT_SERVER_FLAGS, type ServerFlags } from './server-flags.js'
import type { WebhookSink } from '../webhooks/sink.js'

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
  /** Upstream's feature flags, and the keys the scenario gives others. */
  flags?: ServerFlags
  keyFlags?: ReadonlyMap<string, ServerFlags>
  /** Workflows one environment may hold where the generation limits them; 0: no limit. */
  maxWorkflows: number
  /** 'create': a trigger for an unknown workflow creates one (the mock's own, off by default). */
  unknownWorkflows?: UnknownWorkflows
}

/** A new key past the limit: 403 on a Novu route and on the control plane alike, not 503 (the SDKs would retry a 503 for up to an hour). */
class EnvironmentLimitError extends MockRefusal {
  constructor(readonly limit: number) {
    super(
      `novu-mock holds at most ${limit} environments (one per API key): reuse keys, reset with POST /__admin/reset, or raise --max-environments`
    )
    this.name = 'EnvironmentLimitError'
  }

  answer() {
    return httpError(403, this.message)
  }
}

export interface EnvironmentsOptions {
  maxEnvironments: number
  /** The memory budget of the whole process, in MB. */
  maxMemoryMb?: number
  /** Journal entries the budget keeps room for. */
  journalSize?: number
  /** Told of every message an environment's steps create (the control plane's events). */
  onMessage?: (apiKey: string, message: Message) => void
  /** The outbound webhooks an environment's events go to. */
  webhooks?: (env: Environment) => WebhookSink
}

/** What a source costs: its records, held once, and each environment built from it. */
export interface SourceEstimate {
  scenario: number
  environment: number
}

/**
 * One environment per API key, built on first use from the active scenario with a seed derived
 * from the global seed and the key: parallel tests that use different keys never share data.
 * Every environment holds an estimate of its size in the memory budget, checked before it is
 * built; dropping the environment gives the estimate back.
 */
export function createEnvironments(initial: EnvironmentSource, options: EnvironmentsOptions) {
  const budget = createMemoryBudget(options.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB)
  const journal = (options.journalSize ?? 0) * JOURNAL_ENTRY_BYTES
  if (journal > budget.limit)
    throw new Error(
      `--journal-size ${options.journalSize} keeps up to ${megabytes(journal)} of requests, over the memory budget of ${budget.described}: lower --journal-size or raise --max-memory-mb`
    )
  // The journal counts what its entries hold (state.ts); at its largest it must fit.
  // The process-wide caches, emptied before the budget refuses work (cache.ts).
  budget.reclaimable('caches', cacheBytes, clearCaches)
  let source = initial
  let estimate = admitSource(initial)
  budget.set('scenario', estimate.scenario)
  const live = new Map<string, Environment>()
  const footprints = new Map<string, number>()
  let held = 0

  function hold(apiKey: string, bytes: number | undefined) {
    held += (bytes ?? 0) - (footprints.get(apiKey) ?? 0)
    if (bytes === undefined) footprints.delete(apiKey)
    else footprints.set(apiKey, bytes)
    budget.set('environments', held)
  }

  function dropAll() {
    for (const env of live.values()) releaseEnvironment(env)
    live.clear()
    footprints.clear()
    held = 0
    budget.set('environments', 0)
  }

  /**
   * Checks that one environment of the source fits beside the journal and the rules (loading
   * drops every environment and the scenario before it); throws a ScenarioError when not.
   */
  function admitSource(next: EnvironmentSource): SourceEstimate {
    const scenario = jsonHeapBytes(next.data)
    const environment = environmentBytes(next.data, scenario)
    const kept = budget.used() - budget.get('scenario') - budget.get('environments')
    if (kept + scenario + environment <= budget.limit) return { scenario, environment }
    const message =
      `one environment of this scenario needs about ${megabytes(scenario + environment)} ` +
      `(its records and generate counts), over the memory budget of ${budget.described} ` +
      `less the ${megabytes(kept)} the journal (--journal-size) and the rules hold: ` +
      `lower the generate counts, or raise --max-memory-mb`
    throw new ScenarioError('the scenario does not fit in the memory budget (--max-memory-mb)', [
      { path: 'data', message },
    ])
  }

  return {
    get source() {
      return source
    },
    budget,
    /** The key's environment, built if new; undefined when strict mode does not know the key. */
    resolve(apiKey: string): Environment | undefined {
      const existing = live.get(apiKey)
      if (existing) return existing
      const role = source.keys.get(apiKey)
      if (!role && source.strict) return undefined
      if (live.size >= options.maxEnvironments)
        throw new EnvironmentLimitError(options.maxEnvironments)
      budget.admit(estimate.environment, 'the environment of a new API key')
      const env = wire(apiKey, build(apiKey, role ?? 'Development'))
      live.set(apiKey, env)
      hold(apiKey, estimate.environment)
      return env
    },
    /** Whether the key may have an environment (strict scenarios know their keys). */
    allows: (apiKey: string) => !source.strict || source.keys.has(apiKey),
    peek: (apiKey: string) => live.get(apiKey),
    keys: () => [...live.keys()],
    size: () => live.size,
    /** The budget's estimate for the key's environment, 0 when it has none. */
    footprint: (apiKey: string) => footprints.get(apiKey) ?? 0,
    /** Drops one environment (or all): the next request rebuilds it from the scenario. */
    reset(apiKey?: string) {
      if (apiKey === undefined) return dropAll()
      const dropped = live.get(apiKey)
      if (dropped) releaseEnvironment(dropped)
      live.delete(apiKey)
      hold(apiKey, undefined)
    },
    /** Throws unless an environment of `bytes` can take the place of the key's current one. */
    admitReplacement(apiKey: string, bytes: number, what: string) {
      if (!live.has(apiKey) && live.size >= options.maxEnvironments)
        throw new EnvironmentLimitError(options.maxEnvironments)
      budget.admit(bytes, what, footprints.get(apiKey) ?? 0)
    },
    replace(apiKey: string, env: Environment, bytes: number) {
      const replaced = live.get(apiKey)
      if (replaced && replaced !== env) releaseEnvironment(replaced)
      live.set(apiKey, wire(apiKey, env))
      hold(apiKey, bytes)
    },
    /** A write the key's environment now keeps (a created workflow, say). */
    grow(apiKey: string, bytes: number) {
      const current = footprints.get(apiKey)
      if (current !== undefined) hold(apiKey, current + bytes)
    },
    admitSource,
    /** Swaps in a new scenario and drops every environment, in one step. */
    load(next: EnvironmentSource, nextEstimate = admitSource(next)) {
      source = next
      estimate = nextEstimate
      budget.set('scenario', estimate.scenario)
      dropAll()
    },
    build,
  }

  /** Lets the environment's own writes (a trigger's records) ask the budget and grow its footprint. */
  function wire(apiKey: string, env: Environment): Environment {
    const { onMessage, webhooks } = options
    if (webhooks) env.webhooks = webhooks(env)
    if (onMessage || webhooks)
      env.messages.watch((message) => {
        onMessage?.(apiKey, message)
        env.webhooks.messageAdded(message)
      })
    env.memory = {
      admit: (bytes, what) => budget.admit(bytes, what),
      grow(bytes) {
        const current = footprints.get(apiKey)
        if (live.get(apiKey) === env && current !== undefined) hold(apiKey, current + bytes)
      },
    }
    return env
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
    unknownWorkflows: source.unknownWorkflows ?? 'reject',
    flags: source.keyFlags?.get(apiKey) ?? source.flags ?? DEFAULT_SERVER_FLAGS,
  }
}

export type Environments = ReturnType<typeof createEnvironments>

/** Drops what the process-wide caches hold for an environment's stores (a reset frees it). */
function releaseEnvironment(env: Environment) {
  for (const part of Object.values(env))
    if (part !== null && typeof part === 'object') releaseCaches(part as object)
}
