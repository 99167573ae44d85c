import { DEFAULT_SEED, type MockOptions } from './config.js'
import { createLogger, type Logger } from './log.js'
import { createClock } from './tenancy/clock.js'
import {
  createEnvironments,
  type EnvironmentSource,
  type Environments,
} from './tenancy/environments.js'
import type { Role } from './tenancy/environment.js'
import { randomUUID } from 'node:crypto'
import { createRng } from './tenancy/prng.js'
import { resolveScenarioData } from './scenarios/loader.js'
import { createScenarioRegistry, type ScenarioRegistry } from './scenarios/registry.js'
import type { Scenario } from './scenarios/schema.js'
import { resolveServerFlags, type ServerFlags } from './tenancy/server-flags.js'
import { createJournal, type Journal } from './journal/journal.js'
import {
  DEFAULT_GENERATION,
  generationNamed,
  type Generation,
  type GenerationName,
} from './generations/index.js'
import { createRuleSet, type RuleSet } from './chaos/rules.js'
import { createControlEvents, type ControlEvents } from './admin/control-events.js'
import { applyCachesSetting } from './cache.js'
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js'

export interface MockState {
  options: MockOptions
  logger: Logger
  registry: ScenarioRegistry
  environments: Environments
  scenario: Scenario
  startedAt: number
  journal: Journal
  rules: RuleSet
  /** Outbound webhooks: endpoints, deliveries and their log. */
  webhooks: Webhooks
  /** The control plane's events: messages, requests, rules, resets (nothing kept, no listener). */
  events: ControlEvents
  /** Global latency in ms added to every Novu route (PUT /__admin/latency). */
  latency: number
  /**
   * A 500's errorId: random from the system's source, not the seed, so that no two errors share
   * one across resets and restarts (a support request names one error); like `timestamp`, it
   * is outside what a seed repeats.
   */
  newErrorId(): string
  now(): Date
  /** The generation of environments whose key the scenario does not pin to another. */
  generation(): Generation
  /** The generation a request's key (its `Authorization` header) answers in, without building its environment. */
  generationFor(request: { header(name: string): string | undefined }): Generation
}

/** Upstream's system default; its Cloud tiers cap lower (20 on the free tier). */
const DEFAULT_MAX_WORKFLOWS = 100

/** Everything an environment is built from, derived from a scenario and the options. */
export function compileScenario(scenario: Scenario, options: MockOptions): EnvironmentSource {
  const keys = new Map<string, Role>(scenario.environments.keys.map((k) => [k.apiKey, k.role]))
  const generations = new Map<string, GenerationName>()
  const flags = new Map<string, ServerFlags>()
  for (const key of scenario.environments.keys) {
    if (key.apiGeneration) generations.set(key.apiKey, key.apiGeneration)
    flags.set(key.apiKey, resolveServerFlags(scenario.serverFlags, key.serverFlags))
  }
  return {
    generation: options.apiGeneration ?? scenario.apiGeneration ?? DEFAULT_GENERATION,
    generations,
    flags: resolveServerFlags(scenario.serverFlags),
    keyFlags: flags,
    maxWorkflows: options.maxWorkflows ?? scenario.maxWorkflows ?? DEFAULT_MAX_WORKFLOWS,
    unknownWorkflows: options.unknownWorkflows,
    seed: options.seed ?? (scenario.seed !== undefined ? String(scenario.seed) : DEFAULT_SEED),
    data: resolveScenarioData(scenario),
    keys,
    strict: scenario.environments.strict,
    clock: createClock(scenario.clock.mode === 'fixed' ? scenario.clock.at : undefined),
  }
}

export function createState(
  options: MockOptions,
  logger = createLogger(options.logLevel)
): MockState {
  if (options.caches) applyCachesSetting(options.caches)
  const registry = createScenarioRegistry(options.scenariosDir)
  const scenario = registry.load(options.scenario, { files: true })
  const source = compileScenario(scenario, options)
  const events = createControlEvents()
  const environments = createEnvironments(source, {
    maxEnvironments: options.maxEnvironments,
    maxMemoryMb: options.maxMemoryMb,
    journalSize: options.journalSize,
    onMessage: (apiKey, message) => {
      if (events.active) events.emit({ type: 'message', apiKey, messageId: message._id })
    },
    webhooks: (env) => webhooks.sinkFor(env),
  })
  const webhooks = createWebhooks({
    seed: () => environments.source.seed,
    now: () => environments.source.clock.now(),
    logger,
    budget: environments.budget,
    environment: (apiKey) => environments.peek(apiKey),
    recorded: (delivery) => events.emit({ type: 'webhook', delivery }),
  })
  webhooks.load(scenario.webhooks)
  const rules = createRuleSet({
    rng: createRng(`${source.seed}\u0000chaos`),
    maxRules: options.maxRules,
  })
  rules.resetTo(scenario.rules)
  const journal = createJournal(options.journalSize)
  environments.budget.compute('journal', journal.heldBytes)
  const state: MockState = {
    options,
    logger,
    registry,
    environments,
    scenario,
    startedAt: Date.now(),
    journal,
    rules,
    webhooks,
    events,
    latency: options.latency,
    newErrorId: () => randomUUID(),
    now: () => environments.source.clock.now(),
    generation: () => generationNamed(environments.source.generation),
    generationFor(request) {
      const { source } = environments
      // Only a scenario that pins keys to generations needs the key read.
      if (source.generations.size === 0) return generationNamed(source.generation)
      const header = request.header('authorization')
      const apiKey = header?.startsWith('ApiKey ') ? header.slice(7) : undefined
      const pinned = apiKey === undefined ? undefined : source.generations.get(apiKey)
      return generationNamed(pinned ?? source.generation)
    },
  }
  return state
}
