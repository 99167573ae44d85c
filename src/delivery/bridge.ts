import { createRequire } from 'node:module'
import type { jsonrepair as JsonRepair } from 'jsonrepair'
import type { Environment } from '../tenancy/environment.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { Job } from '../resources/notifications/notifications.store.js'
import type { Subscriber } from '../resources/subscribers/subscribers.store.js'
import { nestingDepth } from '../workflow-model/document-cast.js'
import type { Workflow, WorkflowStep } from '../workflow-model/workflows.types.js'
import { schemaErrors, type JsonSchema } from '../validation/json-schema-check.js'
import { dashboardSanitize } from '../resources/workflows-v2/step-issues.js'
import { emailOutputs } from './bridge-email.js'
import { sanitizeObject } from './bridge-html.js'
import { liquidSession, renderLiquid } from './languages/liquid.js'
import { RenderError } from './languages/handlebars.js'
import { setOwn, type Obj, isObj } from '../objects.js'

/**
 * How upstream runs one step of a dashboard (v2) workflow: the worker calls the API's own
 * bridge, where `@novu/framework` executes the workflow built from the stored steps. For the
 * step at hand: its stored control values, sanitised as the dashboard's; checked against the
 * step's control schema (with its defaults); rendered with Liquid as one JSON text (payload,
 * subscriber, the earlier steps' results, …); turned into the channel's outputs by the API's
 * output renderer; and checked against the channel's output schema. Any failure is a
 * RenderError: upstream's bridge call fails and the step sends nothing.
 */

const requireLazily = createRequire(import.meta.url)
let jsonrepair: typeof JsonRepair | undefined
function repair(text: string): string {
  jsonrepair ??= (requireLazily('jsonrepair') as { jsonrepair: typeof JsonRepair }).jsonrepair
  return jsonrepair(text)
}

/** How deeply the payload (and what the render builds from it) may nest. */
const BRIDGE_LIMITS = { depth: 500, jsonDepth: 200 } as const

export interface BridgeRun {
  env: Environment
  job: Job
  subscriber: Subscriber
  actor?: Subscriber
  /** The (virtual) time the step runs at. */
  at: string
}

export type BridgeResult = { outputs: Obj } | { skip: true }

/** The workflow of a job when upstream runs its steps through the bridge (dashboard and code-first ones). */
export function bridgeWorkflowOf(env: Environment, job: Job): Workflow | undefined {
  const workflow = env.workflows.get(job._templateId)
  if (!workflow || workflow.deleted) return undefined
  return workflow.type === 'BRIDGE' || workflow.type === 'ECHO' ? workflow : undefined
}

/* --------------------------------------------------------------------------------------------
 * The earlier steps' results (`steps.<stepId>`)
 */

const stepIdOf = (job: Job) => String(job.step.stepId || job.step.uuid || '')

/** A digest's events: the merged triggers' and its own, oldest first. */
function digestEvents(env: Environment, digest: Job) {
  const merged = env.notifications.mergedInto(digest._id)
  const events = [...merged, digest].map((j) => ({
    id: j._id,
    time: j.createdAt,
    payload: j.payload ?? {},
  }))
  return events.sort((a, b) => Date.parse(a.time) - Date.parse(b.time))
}

/** What a finished job tells the steps after it (upstream's ExecuteBridgeJob.mapOutput). */
function resultOf(env: Environment, job: Job, at: string): Obj {
  switch (job.type) {
    case 'delay':
      return { duration: Date.parse(at) - Date.parse(job.createdAt) }
    case 'digest': {
      const events = digestEvents(env, job)
      return { events, eventCount: events.length }
    }
    case 'in_app': {
      const message = env.messages
        .liveByTransaction(job.transactionId)
        .find((m: Message) => m._jobId === job._id)
      return {
        seen: message?.seen ?? false,
        read: message?.read ?? false,
        lastSeenDate: message?.lastSeenDate || null,
        lastReadDate: message?.lastReadDate || null,
      }
    }
    case 'throttle':
      return { throttled: false }
    default:
      return {}
  }
}

/** `steps`: each earlier job's result by step id, the nearest first (the farthest wins a tie). */
function stepResults(env: Environment, job: Job, at: string): Obj {
  const found = env.notifications.job(job._id)
  if (!found) return {}
  const jobs = found.notification.jobs
  const out: Obj = {}
  for (let i = jobs.indexOf(job) - 1; i >= 0; i--) {
    const earlier = jobs[i] as Job
    out[stepIdOf(earlier)] = resultOf(env, earlier, at)
  }
  return out
}

/* --------------------------------------------------------------------------------------------
 * Controls: defaults, schema, Liquid
 */

/** The keys a control schema knows (every branch's, for an `anyOf`); undefined: any. */
function knownKeys(schema: Obj): Set<string> | undefined {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Obj[]) : [schema]
  const keys = new Set<string>()
  for (const branch of branches) {
    if (!isObj(branch) || branch.additionalProperties !== false) return undefined
    for (const key of Object.keys(isObj(branch.properties) ? branch.properties : {})) keys.add(key)
  }
  return keys
}

/**
 * The framework's check of the controls (Ajv with `useDefaults` and `removeAdditional:
 * 'failing'`): unknown keys dropped, defaults filled in, then any error fails the step.
 */
function checkControls(values: Obj, schema: unknown): Obj {
  if (!isObj(schema)) return values
  const known = knownKeys(schema)
  const out: Obj = {}
  for (const [key, value] of Object.entries(values))
    if (!known || known.has(key)) setOwn(out, key, value)
  const properties = isObj(schema.properties) ? schema.properties : {}
  for (const [key, property] of Object.entries(properties))
    if (out[key] === undefined && isObj(property) && property.default !== undefined)
      out[key] = structuredClone(property.default)
  const errors = schemaErrors(schema as JsonSchema, out)
  if (errors.length)
    throw new RenderError(
      `Workflow step controls are invalid: ${errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join(', ')}`
    )
  return out
}

const JSON_TEXT = '__novuMockJsonText'

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim()
  return (
    trimmed.length > 2 &&
    ((trimmed.startsWith('{') && trimmed.endsWith('}')) ||
      (trimmed.startsWith('[') && trimmed.endsWith(']')))
  )
}

/** Control values holding JSON text (the Maily body) opened up, so Liquid escapes once. */
function expandJsonText(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!looksLikeJson(value)) return value
    try {
      const parsed = JSON.parse(value) as unknown
      if (nestingDepth(parsed, BRIDGE_LIMITS.jsonDepth) > BRIDGE_LIMITS.jsonDepth) return value
      return { [JSON_TEXT]: true, value: expandJsonText(parsed) }
    } catch {
      return value
    }
  }
  if (Array.isArray(value)) return value.map(expandJsonText)
  if (isObj(value)) {
    const out: Obj = {}
    for (const [key, member] of Object.entries(value)) setOwn(out, key, expandJsonText(member))
    return out
  }
  return value
}

/** …and closed again after the render. */
function restoreJsonText(value: unknown): unknown {
  if (isObj(value) && value[JSON_TEXT] === true) return JSON.stringify(restoreJsonText(value.value))
  if (Array.isArray(value)) return value.map(restoreJsonText)
  if (isObj(value)) {
    const out: Obj = {}
    for (const [key, member] of Object.entries(value)) setOwn(out, key, restoreJsonText(member))
    return out
  }
  return value
}

/** How deeply brackets nest outside strings (jsonrepair recurses into each). */
function bracketDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth)
    else if (c === '}' || c === ']') depth--
  }
  return deepest
}

/** The rendered JSON text parsed, repaired first when it does not parse (as upstream always does). */
function parseRendered(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    if (bracketDepth(text) > BRIDGE_LIMITS.jsonDepth)
      throw new RenderError('the rendered controls are not valid JSON')
    try {
      return JSON.parse(repair(text))
    } catch (error) {
      throw new RenderError(error instanceof Error ? error.message : String(error))
    }
  }
}

/** Strings of `data` that look like JSON but do not parse are repaired (kept as text). */
function repairDataStrings(data: Obj): Obj {
  const out: Obj = {}
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string' && looksLikeJson(value)) {
      try {
        JSON.parse(value)
        out[key] = value
      } catch {
        try {
          out[key] = bracketDepth(value) > BRIDGE_LIMITS.jsonDepth ? value : repair(value)
        } catch {
          out[key] = value
        }
      }
    } else setOwn(out, key, isObj(value) ? repairDataStrings(value) : value)
  }
  return out
}

const TRANSLATION_KEY = /\{\{\s*t\.([\p{L}\p{N}_.-]+)\s*\}\}/gu
const TRANSLATION_ARG = /'t\.([\p{L}\p{N}_.-]+)'/gu
const TRANSLATION_MARK = /\[T:([\p{L}\p{N}_.-]+)\]/gu

/**
 * The framework's compileControls: the controls as one JSON text rendered with Liquid (strings
 * escaped for JSON), parsed back. Translation keys (`{{t.key}}`) pass through untouched.
 */
function compileControls(controls: Obj, scope: Obj, now: string): Obj {
  const text = JSON.stringify(expandJsonText(controls))
    .replace(TRANSLATION_KEY, '[T:$1]')
    .replace(TRANSLATION_ARG, "'[T:$1]'")
  const rendered = renderLiquid(text, scope, 'json', now).replace(TRANSLATION_MARK, '{{t.$1}}')
  const parsed = parseRendered(rendered)
  if (nestingDepth(parsed, BRIDGE_LIMITS.jsonDepth) > BRIDGE_LIMITS.jsonDepth)
    throw new RenderError('the rendered controls are nested too deeply')
  if (!isObj(parsed)) throw new RenderError('the rendered controls are not an object')
  const restored = restoreJsonText(parsed) as Obj
  return isObj(restored.data) ? { ...restored, data: repairDataStrings(restored.data) } : restored
}

/* --------------------------------------------------------------------------------------------
 * Outputs per step type, and the channels' output schemas
 */

/** The in-app renderer: HTML sanitised (but `data`) unless disabled; empty subject or body dropped. */
function inAppOutputs(controls: Obj): Obj {
  const { skip: _skip, disableOutputSanitization, ...rest } = controls
  if (disableOutputSanitization) return rest
  const { data, ...others } = rest
  const { body, subject, ...sanitized } = sanitizeObject(others)
  return {
    ...sanitized,
    ...(typeof subject === 'string' && subject.length > 0 ? { subject } : {}),
    ...(typeof body === 'string' && body.length > 0 ? { body } : {}),
    ...(data ? { data } : {}),
  }
}

/** An absolute http(s) URL (checked as a prefix, as upstream's pattern does) or a path. */
const URL_PATTERN = '^(?:https?://[^\\s/$.?#].|/\\S*$)'
const TARGETS = ['_self', '_blank', '_parent', '_top', '_unfencedTop']
const redirect = {
  type: 'object',
  properties: {
    url: { type: 'string', pattern: URL_PATTERN },
    target: { type: 'string', enum: TARGETS },
  },
  required: ['url'],
}
const action = {
  type: 'object',
  properties: { label: { type: 'string' }, redirect },
  required: ['label'],
}

/** The framework's channel output schemas (what it keeps, and what it refuses). */
const OUTPUT_SCHEMAS: Record<string, Obj> = {
  in_app: {
    type: 'object',
    properties: {
      subject: { type: 'string', minLength: 1 },
      body: { type: 'string', minLength: 1 },
      avatar: { type: 'string', format: 'uri' },
      primaryAction: action,
      secondaryAction: action,
      data: { type: 'object' },
      redirect,
    },
    anyOf: [{ required: ['subject'] }, { required: ['body'] }],
  },
  email: {
    type: 'object',
    properties: {
      subject: { type: 'string', minLength: 1 },
      body: { type: 'string' },
      from: { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' } } },
      replyTo: { type: 'string' },
      preheader: { type: 'string' },
      useProviderDefaults: { type: 'boolean' },
    },
    required: ['subject', 'body'],
  },
  sms: { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
  chat: { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
  push: {
    type: 'object',
    properties: { subject: { type: 'string' }, body: { type: 'string' } },
    required: ['subject', 'body'],
  },
}

/** A redirect's target defaults by its url: `_self` for a path, `_blank` otherwise. */
function withTarget(value: unknown): unknown {
  if (!isObj(value) || value.target !== undefined || typeof value.url !== 'string') return value
  return { ...value, target: value.url.startsWith('/') ? '_self' : '_blank' }
}

/** The outputs the channel's schema keeps (unknown keys dropped), or a RenderError. */
function checkOutputs(type: string, outputs: Obj): Obj {
  const schema = OUTPUT_SCHEMAS[type]
  if (!schema) return outputs
  const properties = schema.properties as Obj
  const kept: Obj = {}
  for (const [key, value] of Object.entries(outputs)) if (key in properties) kept[key] = value
  if (type === 'in_app') {
    if (kept.redirect !== undefined) kept.redirect = withTarget(kept.redirect)
    for (const key of ['primaryAction', 'secondaryAction'])
      if (isObj(kept[key]) && (kept[key] as Obj).redirect !== undefined)
        kept[key] = { ...(kept[key] as Obj), redirect: withTarget((kept[key] as Obj).redirect) }
  }
  const errors = schemaErrors(schema as JsonSchema, kept)
  if (errors.length)
    throw new RenderError(
      `Workflow step output is invalid: ${errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join(', ')}`
    )
  return kept
}

function outputsFor(type: string, controls: Obj, variables: Obj, now: string): Obj {
  const { skip: _skip, ...rest } = controls
  switch (type) {
    case 'in_app':
      return inAppOutputs(controls)
    case 'email':
      return emailOutputs(controls, variables, now)
    case 'custom':
    case 'http_request':
      return controls
    default:
      return rest
  }
}

/* --------------------------------------------------------------------------------------------
 * The step
 */

/** The stored step a job runs: found by step id, as the framework finds it. */
function staticStep(workflow: Workflow, job: Job): WorkflowStep | undefined {
  const stepId = job.step.stepId || job.step.uuid
  if (!stepId) throw new RenderError('Step id is not set')
  return workflow.steps.find((s) => (s.stepId || s._templateId) === stepId)
}

/** The control values upstream reads for the job's step (by the step's `_id`), sanitised. */
function controlValuesOf(workflow: Workflow, job: Job, type: string): Obj {
  const stored = workflow.steps.find((s) => s._id === job.step._id)?.controlValues
  if (!isObj(stored)) return {}
  const sanitized =
    workflow.origin === 'novu-cloud' ? dashboardSanitize(stored, type) : (stored as Obj)
  return sanitized ?? {}
}

/**
 * Runs the job's step as upstream's bridge does and returns its outputs (or a skip when the
 * stored step has no controls). Throws a RenderError where the bridge call fails.
 */
export function executeBridge(run: BridgeRun, workflow: Workflow): BridgeResult {
  const { env, job, at } = run
  const step = staticStep(workflow, job)
  if (!step) throw new RenderError(`Workflow step ${String(job.step.stepId)} was not found`)
  const template = (step.template ?? {}) as Obj
  const controls = isObj(template.controls) ? template.controls : undefined
  if (!controls) return { skip: true }
  const type = String(template.type)
  // What the render walks (escaping, copying) must not nest without bound.
  const walked = { payload: job.payload, subscriber: run.subscriber, actor: run.actor }
  if (nestingDepth(walked, BRIDGE_LIMITS.depth) > BRIDGE_LIMITS.depth)
    throw new RenderError(
      `the payload or subscriber nests deeper than ${BRIDGE_LIMITS.depth} levels (novu-mock's limit)`
    )
  const checked = checkControls(controlValuesOf(workflow, job, type), controls.schema)
  const { __source: _source, ...payload } = job.payload
  const steps = stepResults(env, job, at)
  const environment = (env.generation.events.renderContext(env.role).env ?? {}) as Obj
  const scope: Obj = {
    workflow: {
      workflowId: workflow.triggers[0]?.identifier,
      name: workflow.name,
      description: workflow.description,
      tags: workflow.tags,
      severity: workflow.severity,
    },
    payload,
    subscriber: run.subscriber,
    ...(run.actor ? { actor: run.actor } : {}),
    context: {},
    steps,
    env: environment,
  }
  // What the API's output renderers see: the stored workflow, no actor.
  const variables: Obj = {
    workflow,
    payload,
    subscriber: run.subscriber,
    context: {},
    steps,
    env: environment,
  }
  try {
    return liquidSession(at, () => {
      const compiled = compileControls(checked, scope, at)
      return { outputs: checkOutputs(type, outputsFor(type, compiled, variables, at)) }
    })
  } catch (error) {
    // Whatever fails inside the bridge call fails the call.
    if (error instanceof RenderError || !(error instanceof Error)) throw error
    throw new RenderError(error.message)
  }
}
