import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { MockState } from '../state.js'
import { isWorkflowPath, writeBytes } from './estimate.js'

/**
 * Creates keep what they were sent (a workflow body may be 20 MB): each one is checked against
 * the memory budget before its route runs, and its estimate is added to its environment's once
 * it succeeded. Other methods change documents in place or mark them deleted.
 *
 * The check before a create's route runs: the bytes it will keep, or undefined for no create.
 */
export function admitWrite(state: MockState, c: Context<AppEnv>): number | undefined {
  const body = c.req.method === 'POST' ? c.get('body') : undefined
  if (body === undefined) return undefined
  const bytes = estimateOf(body, c.req.path, c.get('rawBody'))
  state.environments.budget.admit(bytes, 'this request')
  return bytes
}

/**
 * The estimate of a body, by its text: the same text (a fixture created again) gives the same
 * estimate on the same kind of path, and walking the parsed body is the estimate's cost.
 */
const estimates = { workflows: new Map<string, number>(), others: new Map<string, number>() }
const MAX_ESTIMATES = 64
const MAX_ESTIMATED_TEXT = 16 * 1024
function estimateOf(body: unknown, path: string, raw: string | undefined): number {
  if (raw === undefined || raw.length > MAX_ESTIMATED_TEXT) return writeBytes(body, path)
  const known = isWorkflowPath(path) ? estimates.workflows : estimates.others
  let bytes = known.get(raw)
  if (bytes === undefined) {
    bytes = writeBytes(body, path)
    if (known.size >= MAX_ESTIMATES) known.clear()
    known.set(raw, bytes)
  }
  return bytes
}

/** Once the create answered: a success adds what it keeps to its environment's footprint. */
export function keepWrite(state: MockState, c: Context<AppEnv>, status: number, bytes: number) {
  const env = c.get('env')
  if (env && status < 300) state.environments.grow(env.apiKey, bytes)
}
