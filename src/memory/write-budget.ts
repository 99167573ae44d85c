import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments'>
import type { Environment } from '../tenancy/environment.js'
import { documentBytes, isWorkflowPath, jsonHeapBytes, valueBytes, writeBytes } from './estimate.js'
import { textMemo } from '../http/text-memo.js'

/**
 * Writes keep what they were sent (a workflow body may be 20 MB): each one is checked against
 * the memory budget before its route runs, and what it keeps is added to its environment's
 * footprint once it succeeded. A create keeps its whole body. An update (PUT, PATCH) replaces
 * fields of a record its path names: it keeps what it adds, each top-level field counted at the
 * largest size written to it through that path, so updating a record again with as much costs
 * nothing more, and a larger or new field costs the difference. DELETE marks or drops records,
 * and keeps nothing.
 */
export interface CountedWrite {
  /** What the write needs room for before it runs: as much as a create of its body. */
  bytes: number
  /** What it keeps once it succeeded in the environment. */
  kept(env: Environment): number
}

/** The check before a write's route runs, or undefined for a request that writes no body. */
export function admitWrite(state: State, c: Context<AppEnv>): CountedWrite | undefined {
  const method = c.req.method
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return undefined
  const body = c.get('body')
  if (body === undefined) return undefined
  const path = c.req.path
  const write =
    method !== 'POST'
      ? updated(body, path)
      : TRIGGERS.test(path)
        ? triggered(estimateOf(body, path, c.get('rawBody')))
        : created(estimateOf(body, path, c.get('rawBody')))
  state.environments.budget.admit(write.bytes, 'this request')
  return write
}

const created = (bytes: number): CountedWrite => ({ bytes, kept: () => bytes })

/**
 * A trigger keeps none of its body as such: the records it makes count themselves, its payload
 * with them (delivery/worker.ts). Its body still needs room while it is read and checked.
 */
const TRIGGERS = /^\/v[12]\/events\/trigger(\/|$)/
const triggered = (bytes: number): CountedWrite => ({ bytes, kept: () => 0 })

/**
 * The largest size written to each field of a record through its path, by environment: dropped
 * with the environment (a reset, an import), as its footprint is.
 */
const fieldsWritten = new WeakMap<Environment, Map<string, Map<string, number>>>()
/** A path's entry, and a field's within it (a Map's slots, the key's text). */
const PATH_ENTRY_BYTES = 200
const FIELD_ENTRY_BYTES = 80
/** The field that holds what the document keeps beside its values. */
const DOCUMENT = '\0document'

function updated(body: unknown, path: string): CountedWrite {
  const sizes = new Map<string, number>()
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    for (const [field, value] of Object.entries(body))
      sizes.set(field, valueBytes(jsonHeapBytes(value) + 24 + field.length, path))
  else sizes.set('', valueBytes(jsonHeapBytes(body), path))
  sizes.set(DOCUMENT, documentBytes(body, path))
  let bytes = 0
  for (const size of sizes.values()) bytes += size
  return {
    bytes,
    kept(env) {
      let records = fieldsWritten.get(env)
      if (!records) fieldsWritten.set(env, (records = new Map()))
      let written = records.get(path)
      let growth = 0
      if (!written) {
        records.set(path, (written = new Map()))
        growth += PATH_ENTRY_BYTES + path.length
      }
      for (const [field, size] of sizes) {
        const before = written.get(field)
        if (before === undefined) growth += FIELD_ENTRY_BYTES + field.length
        if (size > (before ?? 0)) {
          growth += size - (before ?? 0)
          written.set(field, size)
        }
      }
      return growth
    },
  }
}

/**
 * The estimate of a body, by its text: the same text (a fixture created again) gives the same
 * estimate on the same kind of path, and walking the parsed body is the estimate's cost.
 */
function estimateOf(body: unknown, path: string, raw: string | undefined): number {
  const memo = textMemo(raw)
  if (!memo) return writeBytes(body, path)
  return memo.estimate(isWorkflowPath(path), () => writeBytes(body, path))
}

/** Once the write answered: a success adds what it keeps to its environment's footprint. */
export function keepWrite(state: State, c: Context<AppEnv>, status: number, write: CountedWrite) {
  const env = c.get('env')
  if (env && status < 300)
    state.environments.grow(env.apiKey, c.get('keptBytes') ?? write.kept(env))
}
