import type { Environment } from '../../tenancy/environment.js'
import { limitErrors } from './workflows.generations.js'
import { triggerIdentifier, type WorkflowContext } from './workflow-builder.js'
import type { Shape, WorkflowStore } from './workflows.store.js'
import type { SlotValue } from './workflow-template.js'

/**
 * A create sent again, replayed: test suites create the same workflow over and over, and the
 * document built from a body is the same every time but for its ids, its time and its trigger
 * identifier. The first create of a body builds it and records, for each slot of its template
 * (workflow-template.ts), where the value came from; a later create of the same text, in the same
 * environment and generation, draws the identifier and the ids as the build would (the same calls
 * on the seeded generator, in the same order) and stores the template with the new values.
 * Nothing is built, and the answer is the template of its render, filled. A body seen once is
 * only noted: the second create of it builds and records (a body never sent again costs nothing
 * more than before), the third is replayed.
 *
 * What the build checks is decided by the text alone (the generation's DTO and command checks,
 * the templates, the nesting depth), except the workflow limit and the identifier, which the
 * replay checks as the build does, in the same order. A body that creates a group (blueprints),
 * or whose text holds a value the build generated (an id, the time), is never replayed.
 */

/** Where a slot's value comes from when the create is replayed. */
type Source = { id: number } | { now: true } | { identifier: true } | { value: SlotValue }

interface Replay {
  readonly shape: Shape
  readonly sources: readonly Source[]
  readonly idCount: number
  /** Which generated id is the workflow's own `_id`. */
  readonly own: number
  readonly name: string
}

/**
 * Replays per store (one environment's, whose generation is fixed), by route prefix and body
 * text: the last few bodies, none over 16 kB.
 */
const MAX_REPLAYS = 8
const MAX_BODY = 16 * 1024
const replays = new WeakMap<WorkflowStore, Map<string, Map<string, Replay | 'seen'>>>()

/**
 * What an earlier create of this body left: its replay, or that it was seen once (`record`: this
 * create should be recorded), or nothing (this one is noted).
 */
export function findReplay(env: Environment, prefix: string, raw: string | undefined) {
  if (raw === undefined || raw.length > MAX_BODY) return undefined
  const key = { prefix, raw }
  const found = bodiesOf(env, prefix).get(raw)
  if (found === undefined) {
    note(env, key, 'seen')
    return undefined
  }
  return found === 'seen' ? { key, record: true as const } : { key, replay: found }
}

function bodiesOf(env: Environment, prefix: string) {
  let forStore = replays.get(env.workflows)
  if (!forStore) replays.set(env.workflows, (forStore = new Map()))
  let forPrefix = forStore.get(prefix)
  if (!forPrefix) forStore.set(prefix, (forPrefix = new Map()))
  return forPrefix
}

function note(env: Environment, key: { prefix: string; raw: string }, what: Replay | 'seen') {
  const bodies = bodiesOf(env, key.prefix)
  bodies.delete(key.raw)
  if (bodies.size >= MAX_REPLAYS) bodies.delete(bodies.keys().next().value as string)
  bodies.set(key.raw, what)
}

/** Runs a recorded create: the limit, the identifier and the ids as the build draws them. */
export function replayCreate(env: Environment, replay: Replay, now: string): string {
  const ctx = env.workflowContext()
  const rules = ctx.generation.workflows
  if (rules.limitsWorkflows && ctx.maxWorkflows > 0) {
    const count = ctx.workflowCount()
    if (count >= ctx.maxWorkflows) throw limitErrors.workflows(count, ctx.maxWorkflows)
  }
  const identifier = triggerIdentifier(replay.name, ctx)
  const ids: string[] = []
  for (let i = 0; i < replay.idCount; i++) ids.push(ctx.newId())
  const values = replay.sources.map((source): SlotValue => {
    if ('id' in source) return ids[source.id] as string
    if ('now' in source) return now
    if ('identifier' in source) return identifier
    return source.value
  })
  return env.workflows.addFromShape(replay.shape, values, ids[replay.own] as string, identifier)
}

/** A context whose id factory notes every id it hands out, in order. */
export function recordingIds(ctx: WorkflowContext): { ctx: WorkflowContext; ids: string[] } {
  const ids: string[] = []
  const newId = () => {
    const id = ctx.newId()
    ids.push(id)
    return id
  }
  return { ctx: { ...ctx, newId }, ids }
}

/** Records a create that built `workflowId` from `raw`, when it can be replayed. */
export function recordReplay(
  env: Environment,
  key: { prefix: string; raw: string },
  created: { workflowId: string; name: string; ids: readonly string[]; now: string }
) {
  const { raw } = key
  const { workflowId, name, ids, now } = created
  const kept = env.workflows.shapeOf(workflowId)
  if (!kept || kept.shape.identifier === undefined) return
  if (raw.includes(now) || ids.some((id) => raw.includes(id))) return
  const position = new Map(ids.map((id, i) => [id, i]))
  const own = position.get(workflowId)
  if (own === undefined) return
  const sources = kept.values.map((value, i): Source => {
    if (i === kept.shape.identifier) return { identifier: true }
    const id = typeof value === 'string' ? position.get(value) : undefined
    if (id !== undefined) return { id }
    if (value === now) return { now: true }
    return { value }
  })
  note(env, key, { shape: kept.shape, sources, idCount: ids.length, own, name })
}
