import type { Context } from 'hono'
import type { AppEnv } from './app-env.js'
import { httpError, unauthorized } from './errors.js'
import type { MockState } from './state.js'
import type { Environment } from './tenancy/environment.js'
import { createAuthenticator, revokedKeys } from './tenancy/auth.js'
import { ADMIN_PREFIX, adminGuard as adminGuardFor } from './admin/admin-auth.js'
import { announceRequest } from './admin/control-events.js'
import { chaosFor, type Chaos } from './chaos/apply.js'
import { recordRequest } from './journal/record.js'
import { admitWrite, keepWrite, type CountedWrite } from './memory/write-budget.js'
import { readJsonBody } from './http/body.js'
import { renderError } from './http/render-error.js'
import { originalUrl } from './http/respond.js'
import type { AnyRoute, RouteInput } from './http/route.js'
import { validateInput } from './http/route-input.js'

type Answer = Response | Promise<Response>
type Serve = (c: Context<AppEnv>, spec: AnyRoute | undefined) => Answer

/** `next` on the value now, or once it resolves: a request that never waits stays synchronous. */
function after<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** `/v1`, `/v1/…`: what Hono's `/v1/*` pattern matches. */
const under = (path: string, prefix: string) =>
  path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')

const isNovu = (path: string) => under(path, '/v1') || under(path, '/v2')

/**
 * Fixes the generation a request answers in before its first step: its key's (a scenario may pin
 * one), else the mock's. Every step after reads it from the context.
 */
export function fixGeneration(state: MockState, c: Context<AppEnv>): void {
  c.set('generation', state.generationFor(c.req))
}

/**
 * Every request's way through the mock, as one function per request rather than a stack of
 * middleware. Its steps, in the order they run, each one named call below:
 *
 * 1. **journal**: the clock starts; once the answer is known, whatever it is, the request is
 *    recorded (journal/record.ts), the event stream told, and the webhooks it caused let go;
 * 2. **admin guard**: the control plane's token on `/__admin` (admin/admin-auth.ts);
 * 3. **chaos**: on `/v1` and `/v2`, the latency and the rule that fires (chaos/apply.ts): a delay,
 *    then a fault or the rest of the steps;
 * 4. **body**: the JSON body, within the generation's limit (http/body.ts);
 * 5. **memory budget**: a write on `/v1` and `/v2` is admitted before its route runs, and what it
 *    keeps is counted once it succeeded (memory/write-budget.ts);
 * 6. **authentication**: the route, or Express's 404; upstream's key guard and the key's
 *    environment (tenancy/auth.ts), whose due delays and digests are settled before anything
 *    reads it;
 * 7. **validation**: params, query and body in the generation's schemas (http/route-input.ts);
 * 8. **handler**: the route's own work, which answers through http/respond.ts;
 * 9. **rendering**: a throw at any step leaves in the generation's error shape (http/render-error.ts).
 *
 * A request that reads no body and meets no rule stays synchronous: Hono and @hono/node-server
 * then answer it without a promise, the way they answer a bare app.
 */
export function createServe(state: MockState): Serve {
  const guardAdmin = adminGuardFor(state.options.adminToken)
  const authenticate = createAuthenticator(state.environments, () => revokedKeys(state.scenario))

  function serve(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    const started = performance.now()
    fixGeneration(state, c)
    const answer = rendering(c, () => {
      adminGuard(c)
      const around = chaos(c)
      if (around) return around(() => rendering(c, () => fromBody(c, spec)))
      return fromBody(c, spec)
    })
    return journal(c, started, answer)
  }

  /** Steps 4 to 8, from the body to the handler: what chaos lets on. */
  function fromBody(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    const reading = body(c, spec)
    return reading ? reading.then(() => fromBudget(c, spec)) : fromBudget(c, spec)
  }

  /** Steps 5 to 8, once the body is read. */
  function fromBudget(c: Context<AppEnv>, spec: AnyRoute | undefined): Answer {
    const write = memoryBudget(c)
    const route = routeOf(c, spec)
    const env = authentication(c, route)
    const answer =
      env instanceof Promise
        ? env.then((found) => handler(c, route, validation(c, route, found)))
        : handler(c, route, validation(c, route, env))
    return write ? after(answer, (res) => keep(c, res, write)) : answer
  }

  /** 1. The journal: the request recorded once its answer is known, the event stream told. */
  function journal(c: Context<AppEnv>, started: number, answer: Answer): Answer {
    return answer instanceof Promise
      ? answer.then((res) => recorded(c, started, res))
      : recorded(c, started, answer)
  }

  function recorded(c: Context<AppEnv>, started: number, res: Response): Response {
    const id = recordRequest(state, c, res.status, started)
    if (state.events.active) announceRequest(state.events, c.req, res.status, id)
    // After: the webhooks the request caused go out once its answer is written.
    state.webhooks.afterAnswer()
    return res
  }

  /** 2. The admin guard: throws its 401 or 403, or returns. */
  function adminGuard(c: Context<AppEnv>): void {
    if (under(c.req.path, ADMIN_PREFIX)) guardAdmin(c)
  }

  /** 3. Chaos: undefined when it leaves the request alone. */
  const chaos = (c: Context<AppEnv>): Chaos | undefined =>
    isNovu(c.req.path) ? chaosFor(state, c) : undefined

  /** 4. The body: undefined when there is none to wait for. */
  const body = (c: Context<AppEnv>, spec: AnyRoute | undefined) =>
    readJsonBody(c, spec?.sharedBody === true)

  /** 5. The memory budget: the write admitted, if the request is one. */
  const memoryBudget = (c: Context<AppEnv>): CountedWrite | undefined =>
    isNovu(c.req.path) ? admitWrite(state, c) : undefined

  /** …and once the write answered, what a success keeps. */
  function keep(c: Context<AppEnv>, res: Response, write: CountedWrite): Response {
    keepWrite(state, c, res.status, write)
    return res
  }

  /** 6a. The route, else Express's 404 (for a path no route serves, or one the generation lacks). */
  function routeOf(c: Context<AppEnv>, spec: AnyRoute | undefined): AnyRoute {
    if (!spec || (spec.existsIn && !spec.existsIn(c.get('generation'))))
      throw httpError(404, `Cannot ${c.req.method} ${originalUrl(c)}`)
    c.set('matched', true)
    return spec
  }

  /**
   * 6. Authentication: the key's environment on a Novu route (undefined on the control plane's),
   * a promise of it only while faker is still loading just after start.
   */
  function authentication(
    c: Context<AppEnv>,
    spec: AnyRoute
  ): Environment | undefined | Promise<Environment> {
    const refusal = spec.apiKeyRefusal?.(c.get('generation'))
    if (refusal && c.req.header('authorization')?.split(' ')[0] === 'ApiKey') throw refusal
    if (spec.auth !== 'apiKey') return undefined
    const env = authenticate(c)
    return env instanceof Promise
      ? env.then((found) => settled(c, spec, found))
      : settled(c, spec, env)
  }

  /** 6b. The environment, its due work done, behind upstream's RootEnvironmentGuard. */
  function settled(c: Context<AppEnv>, spec: AnyRoute, env: Environment): Environment {
    // Delays and digests whose wait ended by the environment's clock run before anything reads.
    env.settle()
    if (spec.developmentOnly && env._parentId)
      throw unauthorized('This action is only allowed in Development environment')
    // The key's generation, unless a scenario was loaded while this request waited (a delay, a
    // body): the environment, built from the new one, answers in its own.
    if (env.generation !== c.get('generation')) c.set('generation', env.generation)
    return env
  }

  /** 7. Validation: the route's input (http/route-input.ts). */
  const validation = (c: Context<AppEnv>, spec: AnyRoute, env: Environment | undefined) =>
    validateInput(c, spec, env)

  /** 8. The handler: the route's own work, its answer made through http/respond.ts. */
  const handler = (
    c: Context<AppEnv>,
    spec: AnyRoute,
    input: RouteInput<unknown, unknown, unknown>
  ) => spec.handler(c, input)

  /** 9. Rendering: a throw, now or later, becomes the answer in the generation's error shape. */
  function rendering(c: Context<AppEnv>, run: () => Answer): Answer {
    let answer: Answer
    try {
      answer = run()
    } catch (error) {
      return renderError(c, state, error)
    }
    return answer instanceof Promise
      ? answer.catch((error: unknown) => renderError(c, state, error))
      : answer
  }

  return serve
}
