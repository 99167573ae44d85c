import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { httpError } from '../errors.js'
import type { Generation } from '../generations/generation.js'
import type { MockState } from '../state.js'
import { ADMIN_PREFIX, adminGuard } from '../admin/admin-auth.js'
import { applyChaos } from '../chaos/apply.js'
import { recordRequest } from '../journal/record.js'
import { announceRequest } from '../admin/control-events.js'
import { admitWrite, keepWrite } from '../memory/write-budget.js'
import { readJsonBody } from './body.js'
import { renderError } from './render-error.js'
import { originalUrl } from './respond.js'
import { runRoute, type AnyRoute, type Authenticator } from './route.js'

type Answer = Response | Promise<Response>

/** `/v1`, `/v1/…`: what Hono's `/v1/*` pattern matches. */
const under = (path: string, prefix: string) =>
  path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')

/**
 * Every request's way through the mock, as one function per request rather than a stack of
 * middleware: the journal around it all, the admin token on `/__admin`, chaos rules and latency
 * on `/v1` and `/v2`, the JSON body, the memory budget of writes, then the route (or Express's
 * 404). Each step is the middleware it replaces, in the same order, with the same effects; a
 * failure anywhere is rendered in the generation's error shape where it happens. A request that
 * reads no body and meets no rule stays synchronous: Hono and @hono/node-server then answer it
 * without a promise, the way they answer a bare app.
 */
export function createPipeline(
  state: MockState,
  authenticate: Authenticator,
  generationOf: (c: Context<AppEnv>) => Generation
) {
  const guardAdmin = adminGuard(state.options.adminToken)

  /** The route, or the 404 of a path no route serves. */
  function route(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    if (!spec) throw httpError(404, `Cannot ${c.req.method} ${originalUrl(c)}`)
    return runRoute(c, spec, authenticate, generationOf)
  }

  /** The memory budget of writes on `/v1` and `/v2`, then the route. */
  function budgeted(c: Context<AppEnv>, spec: AnyRoute | undefined, novu: boolean): Answer {
    const write = novu ? admitWrite(state, c) : undefined
    if (write === undefined) return route(c, spec)
    const kept = (res: Response) => {
      keepWrite(state, c, res.status, write)
      return res
    }
    const answer = route(c, spec)
    return answer instanceof Promise ? answer.then(kept) : kept(answer)
  }

  /** The JSON body (when one is sent), then the budget and the route. */
  function withBody(c: Context<AppEnv>, spec: AnyRoute | undefined, novu: boolean): Answer {
    const reading = readJsonBody(c, generationOf, spec?.sharedBody === true)
    if (!reading) return budgeted(c, spec, novu)
    return reading.then(() => budgeted(c, spec, novu))
  }

  /** What follows the journal: admin token, chaos, body, budget, route. */
  function inner(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    const path = c.req.path
    if (under(path, ADMIN_PREFIX)) guardAdmin(c)
    const novu = under(path, '/v1') || under(path, '/v2')
    if (novu) {
      const decision = state.rules.decide(c.req)
      if (decision || state.latency > 0)
        return applyChaos(state, c, next(c, spec), decision).then((res) => res ?? c.res)
    }
    return withBody(c, spec, novu)
  }

  /**
   * What a chaos rule calls to let the request on: the rest of the pipeline, its answer (or its
   * rendered failure) in `c.res`, where a slow-body fault reads it.
   */
  const next = (c: Context<AppEnv>, spec: AnyRoute | undefined) => async () => {
    try {
      c.res = await withBody(c, spec, true)
    } catch (error) {
      c.res = renderError(c, state, error)
    }
  }

  return function serve(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    const started = performance.now()
    const done = (res: Response) => {
      const id = recordRequest(state, c, res.status, started)
      if (state.events.active) announceRequest(state.events, c.req, res.status, id)
      // After: the webhooks the request caused go out once its answer is written.
      state.webhooks.afterAnswer()
      return res
    }
    const failed = (error: unknown) => done(renderError(c, state, error))
    let answer: Answer
    try {
      answer = inner(c, spec)
    } catch (error) {
      return failed(error)
    }
    return answer instanceof Promise ? answer.then(done, failed) : done(answer)
  }
}
