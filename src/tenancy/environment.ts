import type { UnknownWorkflows } from '../config.js'
import type { Clock } from './clock.js'
import { DEFAULT_EPOCH, offsetClock, type MovableClock } from './clock.js'
import { createIdFactory, type IdFactory } from './ids.js'
import { createRng, numericSeed, type Rng } from './prng.js'
import { DEFAULT_SERVER_FLAGS, type ServerFlags } from './server-flags.js'
import { createTopicStore, type TopicStore } from '../resources/topics/topics.store.js'
import {
  createNotificationGroupStore,
  type NotificationGroupStore,
} from '../resources/notification-groups/notification-groups.store.js'
import { createWorkflowStore, type WorkflowStore } from '../workflow-model/workflows.store.js'
import { createMessageStore, type MessageStore } from '../resources/messages/messages.store.js'
import {
  createSubscriberStore,
  type SubscriberStore,
} from '../resources/subscribers/subscribers.store.js'
import type { WorkflowContext } from '../workflow-model/workflows.types.js'
import {
  createNotificationStore,
  type NotificationStore,
} from '../resources/notifications/notifications.store.js'
import {
  createIntegrationStore,
  type IntegrationStore,
} from '../resources/integrations/integrations.store.js'
import {
  createPreferenceStore,
  type PreferenceStore,
} from '../resources/preferences/preferences.store.js'
import { createTenantStore, type TenantStore } from '../resources/tenants/tenants.store.js'
import { runDue } from '../delivery/jobs.js'
import { NO_WEBHOOKS, type WebhookSink } from '../webhooks/sink.js'
import {
  buildEnvironmentData,
  workflowRecordError,
  type EnvironmentData,
} from '../fixtures/seed.js'
import { declaredWorkflowV2 } from '../resources/workflows-v2/declared-workflows.js'
import type { ScenarioData } from '../scenarios/schema.js'
import { generationNamed, type Generation, type GenerationName } from '../generations/index.js'

export type Role = 'Development' | 'Production'

export interface Identity {
  apiKey: string
  role: Role
  _organizationId: string
  _environmentId: string
  _userId: string
  _layoutId: string
  /** Set on Production environments: upstream's RootEnvironmentGuard refuses them workflow writes. */
  _parentId?: string
  /** The server release this environment answers as. */
  generation: Generation
  /** Workflows the environment may hold where its generation limits them; 0: no limit. */
  maxWorkflows: number
  /** Upstream's feature flags as this environment's server has them. */
  flags: ServerFlags
  /** What a trigger for an unknown workflow identifier does: upstream's 422, or create one. */
  unknownWorkflows: UnknownWorkflows
}

/** The process memory budget as one environment's writes see it (a no-op until it is wired). */
interface EnvironmentMemory {
  /** Throws the budget's 403 unless `bytes` more fit. */
  admit(bytes: number, what: string): void
  /** Adds what a write now keeps to the environment's footprint. */
  grow(bytes: number): void
}

const UNBOUNDED_MEMORY: EnvironmentMemory = { admit: () => undefined, grow: () => undefined }

export interface Environment extends Identity {
  rng: Rng
  newId: IdFactory
  /** The environment's own clock: its source's time plus how far it was moved forward. */
  clock: MovableClock
  /** Notifications and their jobs, created by triggers. */
  notifications: NotificationStore
  /** The delivery integrations the trigger flow sends with. */
  integrations: IntegrationStore
  memory: EnvironmentMemory
  /** Where its routes and steps tell of the events upstream sends webhooks for. */
  webhooks: WebhookSink
  /** Runs the delayed steps whose wait ended by the environment's clock; how many ran. */
  settle(): number
  groups: NotificationGroupStore
  topics: TopicStore
  workflows: WorkflowStore
  messages: MessageStore
  subscribers: SubscriberStore
  /** Subscribers' own preferences, global and per workflow. */
  preferences: PreferenceStore
  tenants: TenantStore
  now(): string
  workflowContext(): WorkflowContext
  /** True the first time the environment gives `advice` (http/notes.ts: the log has it once). */
  firstAdvice(advice: string): boolean
}

/** Advice remembered per environment; past this many, new advice is logged each time it is given. */
const MAX_ADVICE = 256

export interface EnvironmentSpec {
  apiKey: string
  role: Role
  seed: string
  clock: Clock
  generation: GenerationName
  maxWorkflows: number
  flags?: ServerFlags
  unknownWorkflows?: UnknownWorkflows
}

/** The identity and generators of an environment: the same key and seed give the same ids. */
function createIdentity(spec: EnvironmentSpec) {
  const rng = createRng(`${spec.seed}\u0000${spec.apiKey}`)
  const newId = createIdFactory(rng, Date.parse(DEFAULT_EPOCH))
  const identity: Identity = {
    apiKey: spec.apiKey,
    role: spec.role,
    _organizationId: newId(),
    _environmentId: newId(),
    _userId: newId(),
    _layoutId: newId(),
    ...(spec.role === 'Production' ? { _parentId: newId() } : {}),
    generation: generationNamed(spec.generation),
    maxWorkflows: spec.maxWorkflows,
    flags: spec.flags ?? DEFAULT_SERVER_FLAGS,
    unknownWorkflows: spec.unknownWorkflows ?? 'reject',
  }
  return { identity, rng, newId }
}

export function createEnvironment(spec: EnvironmentSpec, data: ScenarioData): Environment {
  const { identity, rng, newId } = createIdentity(spec)
  const seeded: EnvironmentData = buildEnvironmentData(
    { ...identity, rng, newId, seed: spec.seed },
    data
  )
  return assembleEnvironment(identity, rng, newId, spec.clock, seeded)
}

function assembleEnvironment(
  identity: Identity,
  rng: Rng,
  newId: IdFactory,
  clock: Clock,
  data: EnvironmentData
): Environment {
  const workflows = createWorkflowStore(data.workflows)
  const groups = createNotificationGroupStore(data.notificationGroups)
  const own = offsetClock(clock)
  // One text per millisecond: formatting a date is most of a clock read, and the records made
  // within the same millisecond share the string.
  let lastMs = Number.NaN
  let lastText = ''
  const now = () => {
    const ms = own.now().getTime()
    if (ms !== lastMs) {
      lastMs = ms
      lastText = new Date(ms).toISOString()
    }
    return lastText
  }
  // Upstream's blueprint path: a group of that name, created (without a parent) when missing.
  function groupNamed(store: NotificationGroupStore, name: string): string {
    const found = store.list().find((g) => g.name === name)
    if (found) return found._id
    const at = now()
    const owner = {
      _environmentId: identity._environmentId,
      _organizationId: identity._organizationId,
    }
    return store.add({ _id: newId(), name, ...owner, createdAt: at, updatedAt: at, __v: 0 })._id
  }
  const subscribers = createSubscriberStore(data.subscribers)
  const notifications = createNotificationStore(data.notifications ?? [])
  // One context for the environment's life: what it holds never changes.
  let context: WorkflowContext | undefined
  // Hashes of the words: a note runs to a kilobyte, and a collision only moves a log line to debug.
  let advised: Set<number> | undefined
  const env: Environment = {
    ...identity,
    rng,
    newId,
    clock: own,
    notifications,
    integrations: createIntegrationStore(data.integrations, identity),
    memory: UNBOUNDED_MEMORY,
    webhooks: NO_WEBHOOKS,
    settle: () => (notifications.pendingCount() ? runDue(env) : 0),
    groups,
    topics: createTopicStore(data.topics, data.subscriptions),
    workflows,
    messages: createMessageStore(data.messages, subscribers),
    subscribers,
    preferences: createPreferenceStore(data.preferences ?? []),
    tenants: createTenantStore(data.tenants ?? []),
    now,
    workflowContext: () =>
      (context ??= Object.freeze({
        ...identity,
        newId,
        rng,
        identifierTaken: (identifier: string) => workflows.hasIdentifier(identifier),
        workflowCount: () => workflows.liveCount(),
        groupNamed: (name: string) => groupNamed(groups, name),
      })),
    firstAdvice: (advice) => {
      const hash = numericSeed(advice)
      if (advised?.has(hash)) return false
      if ((advised ??= new Set()).size < MAX_ADVICE) advised.add(hash)
      return true
    },
  }
  for (const { index, record } of data.workflowsV2 ?? []) {
    try {
      workflows.add(declaredWorkflowV2(env, record))
    } catch (error) {
      throw workflowRecordError(error, index)
    }
  }
  return env
}
