import { bearer } from '../admin/client.js'
import { adminActionName, adminCall, adminErrorText } from './admin.js'
import { send, type ReceivedResponse, type SendOptions } from './http.js'
import { readCapture } from './json-path.js'
import { matchHeaders, matchPartial, show } from './match.js'
import type { ReplayReport, StepReport } from './report.js'
import type {
  ReplayAdmin,
  ReplayExpect,
  ReplayRequest,
  ReplayScript,
  ReplayStep,
} from './schema.js'
import {
  MissingVariableError,
  substitute,
  substitutePath,
  substituteText,
  type Variables,
} from './template.js'

export interface ReplayOptions {
  /** The base URL: `http://127.0.0.1:4000`, or the real service's. */
  target: string
  /** Sent as `Authorization: ApiKey <key>`; wins over the script's own apiKey. */
  apiKey?: string
  /** Sent as `Authorization: Bearer <token>` on admin steps. */
  adminToken?: string
  /** Marks admin steps skipped instead of running them: the real service has no /__admin. */
  skipAdmin?: boolean
  fetch?: typeof fetch
  /** Per request; 30 s unless told. */
  timeoutMs?: number
}

interface RunContext extends SendOptions {
  apiKey?: string
  adminToken?: string
  skipAdmin: boolean
  variables: Variables
}

type StepHead = Pick<StepReport, 'index' | 'name' | 'method' | 'path'>

const finish = (head: StepHead, status: number, durationMs: number, failures: string[]) => ({
  ...head,
  status,
  durationMs,
  ok: failures.length === 0,
  failures,
})

/**
 * Runs a script's steps in order against `target` and reports each one. A failed step does not
 * stop the run, and a network error is a failed step, not a throw.
 *
 * @example
 * const report = await runReplay(await loadReplayScript('onboarding.yaml'), {
 *   target: mock.url,
 *   apiKey: 'test',
 * })
 * if (report.failed > 0) console.log(formatReport(report))
 */
export async function runReplay(
  script: ReplayScript,
  options: ReplayOptions
): Promise<ReplayReport> {
  const target = options.target.replace(/\/+$/, '')
  const context: RunContext = {
    target,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    apiKey: options.apiKey ?? script.apiKey,
    adminToken: options.adminToken,
    skipAdmin: options.skipAdmin ?? false,
    // `{{apiKey}}` is the key the replay runs with, unless the script names its own variable.
    // Without a prototype, a variable saved as `__proto__` is one more variable.
    variables: Object.assign(Object.create(null) as Variables, {
      ...((options.apiKey ?? script.apiKey) ? { apiKey: options.apiKey ?? script.apiKey } : {}),
      ...script.variables,
    }),
  }
  const steps: StepReport[] = []
  for (const [i, step] of script.steps.entries()) steps.push(await runStep(step, i + 1, context))
  const skipped = steps.filter((s) => s.skipped).length
  const failed = steps.filter((s) => !s.ok).length
  return {
    name: script.name,
    target,
    passed: steps.length - failed - skipped,
    failed,
    skipped,
    steps,
  }
}

function runStep(step: ReplayStep, index: number, context: RunContext): Promise<StepReport> {
  const name = step.name !== undefined ? { name: step.name } : {}
  if (step.admin) return runAdminStep(step.admin, { index, ...name }, context)
  if (step.mockOnly && context.skipAdmin && step.request)
    return Promise.resolve({
      index,
      ...name,
      method: step.request.method,
      path: step.request.path,
      status: 0,
      durationMs: 0,
      ok: true,
      skipped: true,
      failures: [],
    })
  if (step.request) return runRequestStep(step, step.request, { index, ...name }, context)
  // The schema lets no step through without one of the two.
  throw new Error(`step ${index} has neither "request" nor "admin"`)
}

/** A key an admin step names that is still a placeholder: nothing defined it. */
function unresolvedKey(admin: ReplayAdmin): string | undefined {
  const keys = [
    typeof admin.reset === 'object' ? admin.reset.apiKey : undefined,
    (admin.addRule?.match as { apiKey?: unknown } | undefined)?.apiKey,
  ]
  const left = keys.find((key) => typeof key === 'string' && /\{\{\s*[\w-]+\s*\}\}/.test(key))
  return left as string | undefined
}

async function runAdminStep(
  raw: ReplayAdmin,
  head: Pick<StepReport, 'index' | 'name'>,
  context: RunContext
): Promise<StepReport> {
  // Placeholders count in admin steps too: `reset: { apiKey: '{{apiKey}}' }`, a saved id in a rule.
  const admin = substitute(raw, context.variables) as ReplayAdmin
  const call = adminCall(admin)
  const named = { ...head, name: head.name ?? `admin ${adminActionName(admin)}` }
  const full = { ...named, method: call.method, path: call.path }
  if (context.skipAdmin)
    return { ...full, status: 0, durationMs: 0, ok: true, skipped: true, failures: [] }
  const left = unresolvedKey(admin)
  if (left !== undefined)
    return finish(full, 0, 0, [
      `not sent: ${left} is not defined (give --api-key, or the script's apiKey)`,
    ])
  const headers = new Headers()
  if (context.adminToken) headers.set('authorization', bearer(context.adminToken))
  const body = call.body
  const sent = await send({ ...call, headers, body }, context)
  if ('error' in sent) return finish(full, 0, sent.durationMs, [sent.error])
  const { status } = sent.response
  return finish(full, status, sent.durationMs, adminFailures(admin, sent.response))
}

function adminFailures(admin: ReplayAdmin, response: ReceivedResponse): string[] {
  if (response.status >= 200 && response.status < 300) return []
  const reason = adminErrorText(response.body, response.text)
  return [`admin ${adminActionName(admin)}: expected 2xx, got ${response.status}: ${reason}`]
}

async function runRequestStep(
  step: ReplayStep,
  request: ReplayRequest,
  head: Pick<StepReport, 'index' | 'name'>,
  context: RunContext
): Promise<StepReport> {
  const start = { ...head, method: request.method, path: request.path }
  let path
  try {
    path = substitutePath(request.path, context.variables)
  } catch (error) {
    if (!(error instanceof MissingVariableError)) throw error
    return finish(start, 0, 0, [`not sent: ${error.message}`])
  }
  const full = { ...start, path }
  const headers = requestHeaders(request.headers, context)
  const body = substitute(request.body, context.variables)
  const expect = substitute(step.expect ?? {}, context.variables) as ReplayExpect
  const sent = await send({ method: request.method, path, headers, body }, context)
  if ('error' in sent) return finish(full, 0, sent.durationMs, [sent.error])
  const failures = [
    ...checkExpectations(expect, sent.response),
    ...saveCaptures(step.save ?? {}, sent.response, context.variables),
  ]
  return finish(full, sent.response.status, sent.durationMs, failures)
}

/** The API key goes first, so a step's own Authorization (or `Authorization: null`) wins. */
function requestHeaders(
  own: Record<string, string | null> | undefined,
  context: RunContext
): Headers {
  const headers = new Headers()
  if (context.apiKey) headers.set('authorization', `ApiKey ${context.apiKey}`)
  for (const [name, value] of Object.entries(own ?? {})) {
    if (value === null) headers.delete(name)
    else headers.set(name, substituteText(value, context.variables))
  }
  return headers
}

function checkExpectations(expect: ReplayExpect, response: ReceivedResponse): string[] {
  const failures: string[] = []
  if (expect.status !== undefined && expect.status !== response.status)
    failures.push(`status: expected ${expect.status}, got ${response.status}`)
  if (expect.headers) failures.push(...matchHeaders(expect.headers, response.headers))
  if (expect.body !== undefined) {
    if (response.body === undefined && response.text)
      failures.push(`body: expected JSON, got ${show(response.text)}`)
    else failures.push(...matchPartial(expect.body, response.body, 'body'))
  }
  return failures
}

function saveCaptures(
  save: Record<string, string>,
  response: ReceivedResponse,
  variables: Variables
): string[] {
  return Object.entries(save).flatMap(([name, source]) => {
    const value = readCapture(source, response)
    if (value === undefined) return [`save ${name}: ${source} is not in the response`]
    variables[name] = value
    return []
  })
}
