import { badRequest } from '../errors.js'

/**
 * What the renders of one trigger request may do together: every recipient, step and (bulk)
 * event of it, where RENDER_LIMITS and LIQUID_LIMITS bound each render alone. A trigger renders
 * once per recipient and step, so those bounds alone let one request write gigabytes and run for
 * minutes. Measured on Node 20 on a shared two-core machine: a Handlebars loop iteration takes
 * 2 µs, a Liquid block 5 to 30 µs, so these keep a request's rendering to about a second.
 */
const REQUEST_RENDER_LIMITS = {
  /** Characters the renders of one request write, failed renders included. */
  chars: 32 * 1024 * 1024,
  /** Handlebars `#each` iterations and Liquid block bodies (loop iterations, branches taken). */
  iterations: 200_000,
} as const

/**
 * The jobs one trigger request may create, for all its recipients (topics' members and a
 * broadcast's subscribers included), steps and (bulk) events: upstream answers before its
 * workers fan out, the mock after, so this bounds how long one request holds every other.
 * Measured on Node 20 on two idle cores, a job with its share of the recipient's notification
 * and subscriber takes 10 µs (pending after a delay) to 50 µs (an email rendered and sent), a
 * few times more on a loaded machine: 25,000 jobs keep a request to about a second. That is
 * 12,500 recipients of a one-step workflow, 5,000 of a four-step one.
 */
const REQUEST_JOB_LIMIT = 25_000

interface Work {
  chars: number
  iterations: number
  jobs: number
}

/** The request rendering now (renders are synchronous), or none: the clock's own runs. */
let open: Work | undefined

/** Runs `work` with one render allowance, unless one is open already (a bulk's events share it). */
export function withRenderWork<T>(work: () => T): T {
  if (open) return work()
  open = { chars: 0, iterations: 0, jobs: 0 }
  try {
    return work()
  } finally {
    open = undefined
  }
}

/** Runs `work` outside the request's allowance: steps the clock made due render on their own. */
export function outsideRenderWork<T>(work: () => T): T {
  const outer = open
  open = undefined
  try {
    return work()
  } finally {
    open = outer
  }
}

const refused = (what: string, limit: number) =>
  badRequest(
    `This trigger request renders more than ${limit} ${what} for its recipients, steps and events ` +
      `together (novu-mock's limit of a trigger request's rendering, which keeps one request from ` +
      `blocking every other): send fewer recipients or events, or render smaller loops`
  )

/** Counts one render's output and loop iterations; past the request's allowance, a 400 naming it. */
export function chargeRender(chars: number, iterations: number): void {
  if (!open) return
  open.chars += chars
  open.iterations += iterations
  if (open.chars > REQUEST_RENDER_LIMITS.chars)
    throw refused('characters', REQUEST_RENDER_LIMITS.chars)
  if (open.iterations > REQUEST_RENDER_LIMITS.iterations)
    throw refused('loop iterations and Liquid blocks', REQUEST_RENDER_LIMITS.iterations)
}

/**
 * Counts the jobs a trigger is about to create, before it writes anything; past the request's
 * allowance, a 400 naming it (and the trigger is not counted, so a bulk's smaller events after
 * it may still run).
 */
export function chargeJobs(jobs: number): void {
  if (!open) return
  if (open.jobs + jobs > REQUEST_JOB_LIMIT)
    throw badRequest(
      `This trigger request creates more than ${REQUEST_JOB_LIMIT} jobs for its recipients, ` +
        `steps and events together (novu-mock's limit of a trigger request's work, which keeps ` +
        `one request from blocking every other): send fewer recipients or events, or split them ` +
        `over several requests`
    )
  open.jobs += jobs
}
