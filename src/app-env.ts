import type { HttpBindings } from '@hono/node-server'
import type { Environment } from './tenancy/environment.js'
import type { Outcome } from './chaos/rules.schemas.js'
import type { Generation } from './generations/generation.js'
import type { Note } from './http/notes.js'

/** What a request carries on its Hono context, from one step of its path (serve.ts) to the next. */
export interface AppEnv {
  /** Node's request and response objects when served by @hono/node-server; absent under app.request(). */
  Bindings: Partial<HttpBindings>
  Variables: {
    /**
     * The generation the request answers in, fixed before its first step (its key's, else the
     * mock's); every step after reads it here.
     */
    generation: Generation
    body?: unknown
    rawBody?: string
    env?: Environment
    /** Set once a route matched, so the journal can tell unmatched requests apart. */
    matched?: boolean
    /** The chaos rule that fired, and the network fault it caused, if any. */
    rule?: string
    fault?: string
    /** What that rule answered, when it answered (a fault, not a delay or a pass). */
    outcome?: Outcome
    /** The JSON text a route answered with, for the journal to find ids in. */
    responseText?: string
    /** The latency chaos added before the route ran. */
    delayMs?: number
    /**
     * What a write keeps, measured from what its route stored, when that is truer than the
     * estimate of its body (a workflow kept as a shared frame; memory/write-budget.ts).
     */
    keptBytes?: number
    /** What the mock, as upstream, dropped or changed of what the client sent (http/notes.ts). */
    notes?: Note[]
  }
}
