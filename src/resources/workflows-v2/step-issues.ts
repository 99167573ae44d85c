/**
 * A step's `issues` and the workflow's `status`, as upstream computes them when a dashboard
 * workflow is written: the control values are sanitised per step type, checked against the
 * type's control schema (Ajv's errors mapped to upstream's messages), and their Liquid outputs
 * checked against the step's variables. Tier limits, skip rules, provider overrides and
 * integrations are not checked (see the README).
 */
import {
  schemaErrors,
  type JsonSchema,
  type SchemaError,
} from '../../validation/json-schema-check.js'
import { faithfulKey, isPropertyAllowed } from './variables.js'
import { isObj, setOwn, type Obj } from '../../objects.js'
import { BoundedCache, identityOf, textBytes } from '../../cache.js'

interface RuntimeIssue {
  message: string
  issueType: string
  variableName?: string
  severity?: string
}

export interface StepIssues {
  controls?: Record<string, RuntimeIssue[]>
  integration?: Record<string, RuntimeIssue[]>
  [key: string]: unknown
}

/* --------------------------------------------------------------------------------------------
 * Sanitising (upstream's dashboardSanitizeControlValues and its framework twin)
 */

/** lodash's isEmpty: numbers and booleans are empty, as are '' [] {} null and undefined. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return true
}

const orDefault = (value: unknown, fallback: unknown = undefined) =>
  isEmpty(value) ? fallback : value

/** Drops null and undefined members, recursing into objects and the objects inside arrays. */
function withoutNullish(value: Obj): Obj {
  const out: Obj = {}
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue
    if (Array.isArray(member))
      setOwn(
        out,
        key,
        member.map((item) =>
          item !== null && typeof item === 'object' && !Array.isArray(item)
            ? withoutNullish(item as Obj)
            : item
        )
      )
    else setOwn(out, key, typeof member === 'object' ? withoutNullish(member as Obj) : member)
  }
  return out
}

/** Upstream reads `url.startsWith` unguarded: any other truthy url throws, and it then keeps the values as sent. */
class SanitizeFailure extends Error {}

function sanitizeRedirect(redirect: unknown) {
  const url = (redirect as Obj | null | undefined)?.url
  if (!url || (url as { length?: unknown }).length === 0) return undefined
  if (typeof url !== 'string') throw new SanitizeFailure()
  const target = (redirect as Obj).target
  return { url, target: target ?? (url.startsWith('/') ? '_self' : '_blank') }
}

function sanitizeAction(action: unknown) {
  const label = (action as Obj | null | undefined)?.label
  if (!label) return undefined
  return { label, redirect: sanitizeRedirect((action as Obj).redirect) }
}

const EMPTY_TIP_TAP = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph' }] })

/** `parseInt` as upstream's amount parser applies it to strings only. */
function parseAmount(amount: unknown): Obj {
  if (Number.isNaN(Number.parseInt(amount as string, 10))) return {}
  return { amount: typeof amount === 'string' ? Number.parseInt(amount, 10) : amount }
}

function sanitizeByType(values: Obj, stepType: string): Obj {
  const v = values
  switch (stepType) {
    case 'in_app':
      return withoutNullish({
        subject: orDefault(v.subject),
        body: orDefault(v.body),
        avatar: orDefault(v.avatar),
        primaryAction: v.primaryAction ? sanitizeAction(v.primaryAction) : undefined,
        secondaryAction: v.secondaryAction ? sanitizeAction(v.secondaryAction) : undefined,
        redirect: v.redirect ? sanitizeRedirect(v.redirect) : undefined,
        data: v.data,
        skip: v.skip,
        disableOutputSanitization: v.disableOutputSanitization,
      })
    case 'email':
      return withoutNullish({
        editorType: v.editorType,
        subject: orDefault(v.subject, ' '),
        body: orDefault(v.body, EMPTY_TIP_TAP),
        skip: v.skip,
        disableOutputSanitization: v.disableOutputSanitization,
        layoutId: v.layoutId,
        from: v.from,
        useProviderDefaults: v.useProviderDefaults,
        replyTo: v.replyTo,
        preheader: v.preheader,
      })
    case 'sms':
      return withoutNullish({ body: orDefault(v.body), skip: v.skip })
    case 'push':
      return withoutNullish({
        subject: orDefault(v.subject),
        body: orDefault(v.body),
        skip: v.skip,
      })
    case 'chat':
    case 'tool': {
      const out = withoutNullish({ body: orDefault(v.body), skip: v.skip })
      return v.providerOverrides === undefined
        ? out
        : { ...out, providerOverrides: v.providerOverrides }
    }
    case 'digest': {
      if (!isEmpty(v.cron))
        return withoutNullish({
          type: v.type,
          cron: v.cron,
          digestKey: v.digestKey,
          skip: v.skip,
          extendToSchedule: v.extendToSchedule,
        })
      const window = v.lookBackWindow as Obj | undefined
      return withoutNullish({
        type: v.type,
        ...parseAmount(v.amount),
        unit: v.unit,
        digestKey: v.digestKey,
        skip: v.skip,
        lookBackWindow: window ? { ...parseAmount(window?.amount), unit: window?.unit } : undefined,
        extendToSchedule: v.extendToSchedule,
      })
    }
    case 'delay':
      if (!isEmpty(v.cron))
        return withoutNullish({
          type: v.type,
          cron: v.cron,
          skip: v.skip,
          extendToSchedule: v.extendToSchedule,
        })
      if (!isEmpty(v.dynamicKey))
        return withoutNullish({
          type: v.type,
          dynamicKey: v.dynamicKey,
          skip: v.skip,
          extendToSchedule: v.extendToSchedule,
        })
      return withoutNullish({
        type: v.type,
        ...parseAmount(v.amount),
        unit: v.unit,
        skip: v.skip,
        extendToSchedule: v.extendToSchedule,
      })
    default:
      return withoutNullish(values)
  }
}

/** Dashboard workflows' sanitiser: known keys only, per type, with upstream's defaults. */
export function dashboardSanitize(values: Obj, stepType: string): Obj {
  try {
    return sanitizeByType(values, stepType)
  } catch (error) {
    if (error instanceof SanitizeFailure) return values
    throw error
  }
}

/** Other workflows' sanitiser: blank strings become null, nothing else changes. */
function frameworkSanitize(value: unknown): unknown {
  if (typeof value === 'string') return value.trim() === '' ? null : value
  if (Array.isArray(value)) return value.map(frameworkSanitize)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frameworkSanitize(v)]))
  return value
}

/* --------------------------------------------------------------------------------------------
 * Schema issues (upstream's mapping of Ajv errors)
 */

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function errorPath(error: SchemaError): string | undefined {
  const path = error.instancePath.substring(1)
  const appended = (error.params.missingProperty ?? error.params.additionalProperty) as
    string | undefined
  if (!path || path.trim().length === 0) return appended
  return (appended ? `${path}/${appended}` : path).replace(/\//g, '.')
}

function isUrlField(path: string | undefined, instancePath: string): boolean {
  return (
    !!(
      path &&
      (path === 'url' || path.endsWith('.url') || path === 'avatar' || path === 'redirect')
    ) ||
    instancePath === '/url' ||
    instancePath.includes('/url') ||
    instancePath === '/avatar' ||
    instancePath === '/redirect'
  )
}

function issueMessage(error: SchemaError, stepType: string): string {
  if (stepType === 'in_app') {
    if (error.keyword === 'required') return 'Subject or body is required'
    if (error.keyword === 'minLength')
      return `${capitalize(error.instancePath.replace('/', ''))} is required`
  }
  if (error.keyword === 'required')
    return `${capitalize(String(error.params.missingProperty))} is required`
  if (error.keyword === 'minLength')
    return `${capitalize(error.instancePath.replace('/', ''))} is required`
  if (error.keyword === 'additionalProperties')
    return `"${String(error.params.additionalProperty)}" is not a supported property`
  if (
    isUrlField(errorPath(error), error.instancePath) &&
    (error.keyword === 'anyOf' || error.keyword === 'pattern')
  )
    return stepType === 'http_request'
      ? 'Invalid URL. Must be a valid absolute URL (https://...) or {{variable}}'
      : 'Invalid URL. Must be a valid full URL, path starting with /, or {{variable}}'
  return error.message || 'Invalid value'
}

function issueType(error: SchemaError, urlField = false): string {
  switch (error.keyword) {
    case 'required':
    case 'type':
      return 'MISSING_VALUE'
    case 'pattern':
    case 'anyOf':
      return urlField ? 'INVALID_URL' : 'MISSING_VALUE'
    case 'additionalProperties':
      return 'UNSUPPORTED_PROPERTY'
    default:
      return 'MISSING_VALUE'
  }
}

function schemaIssues(schema: JsonSchema, values: Obj, stepType: string): StepIssues {
  const errors = schemaErrors(schema, values)
  if (!errors.length) return {}
  const urlErrors = new Map<string, SchemaError[]>()
  const others: { error: SchemaError; path: string }[] = []
  for (const error of errors) {
    const path = errorPath(error)
    if (!path) continue
    if (isUrlField(path, error.instancePath))
      urlErrors.set(path, [...(urlErrors.get(path) ?? []), error])
    else others.push({ error, path })
  }
  const controls: Record<string, RuntimeIssue[]> = {}
  for (const [path, fieldErrors] of urlErrors) {
    const chosen = fieldErrors.find((e) => e.keyword === 'anyOf') ?? (fieldErrors[0] as SchemaError)
    controls[path] = [
      {
        message: issueMessage(chosen, stepType),
        issueType: issueType(chosen, true),
        variableName: path,
      },
    ]
  }
  for (const { error, path } of others) {
    controls[path] ??= []
    controls[path].push({
      message: issueMessage(error, stepType),
      issueType: issueType(error),
      variableName: path,
    })
  }
  return { controls }
}

/* --------------------------------------------------------------------------------------------
 * Liquid issues (the common cases of upstream's variable check)
 */

const LOCAL_VARIABLE = /\{%-?\s*(?:for|tablerow)\s+(\w+)\s+in\s|\{%-?\s*(?:assign|capture)\s+(\w+)/g
const OUTPUT = /\{\{-?([\s\S]*?)-?\}\}/g
const SIMPLE_PATH = /^[a-zA-Z_][\w-]*(?:\.[\w-]+|\[\d+\])*$/

/**
 * Whether JSON text can be an object: its first character past JSON's whitespace is `{`. Any
 * other text parses to no object or throws, and most control values are plain text, whose
 * parse would throw (an exception costs far more than this look).
 */
function startsAnObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // JSON's whitespace: space, tab, line feed, carriage return.
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue
    return code === 0x7b
  }
  return false
}

/** A stringified Maily (TipTap) document: `{"type":"doc","content":[…]}`. */
export function isMailyDocument(text: unknown): boolean {
  if (typeof text !== 'string' || !startsAnObject(text)) return false
  try {
    const parsed = JSON.parse(text) as unknown
    return isObj(parsed) && parsed.type === 'doc' && Array.isArray(parsed.content)
  } catch {
    return false
  }
}

interface InvalidVariable {
  name: string
  message: string
}

const LOOP = /\{%-?\s*(?:for|tablerow)\s/

function invalidVariables(text: string, variables: Obj): InvalidVariable[] {
  // Most control values are text with no output at all.
  if (!text.includes('{{')) return []
  const outputs = [...text.matchAll(OUTPUT)]
  // An empty output fails the whole template's parse, reported once as {{}}.
  if (outputs.some((m) => (m[1] ?? '').trim() === ''))
    return [{ name: '{{}}', message: 'invalid value expression: "",' }]
  const locals = new Set<string>()
  if (text.includes('{%')) {
    for (const m of text.matchAll(LOCAL_VARIABLE)) {
      const local = m[1] ?? m[2]
      if (local) locals.add(local)
    }
    if (LOOP.test(text)) locals.add('forloop')
  }
  const seen = new Set<string>()
  const out: InvalidVariable[] = []
  const add = (variable: InvalidVariable) => {
    if (seen.has(variable.name)) return
    seen.add(variable.name)
    out.push(variable)
  }
  for (const match of outputs) {
    const expression = (match[1] ?? '').split('|')[0]?.trim() ?? ''
    // Literals and ranges name no variable.
    if (/^(['"]).*\1$/.test(expression) || /^-?\d/.test(expression) || expression.startsWith('('))
      continue
    if (/\s/.test(expression) && SIMPLE_PATH.test(expression.split(/\s+/)[0] ?? '')) {
      add({ name: match[0], message: 'contains whitespaces' })
      continue
    }
    if (!SIMPLE_PATH.test(expression)) continue
    const name = expression
    const root = name.split(/[.[]/)[0] as string
    if (locals.has(root)) continue
    if (name.split('.').length === 1) {
      add({ name, message: 'invalid or missing namespace' })
      continue
    }
    if (isPropertyAllowed(variables, name) || name.startsWith('t.')) continue
    add({ name, message: 'is not supported' })
  }
  return out
}

function liquidIssues(values: unknown, variables: Obj): StepIssues {
  const controls: Record<string, RuntimeIssue[]> = {}
  const walk = (value: unknown, path: string[]) => {
    if (!value || typeof value !== 'object') {
      if (typeof value !== 'string' || !value || isMailyDocument(value)) return
      const invalid = invalidVariables(value, variables)
      if (invalid.length)
        controls[path.join('.')] = invalid.map((v) => ({
          message: `Variable "${v.name}" ${v.message}`.trim(),
          issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
          variableName: v.name,
        }))
      return
    }
    for (const [key, member] of Object.entries(value)) walk(member, [...path, key])
  }
  walk(values, [])
  return Object.keys(controls).length ? { controls } : {}
}

/**
 * lodash's merge: objects key by key, arrays index by index, undefined never overwrites, a
 * `__proto__` key left out.
 */
function mergeIssues(target: unknown, source: unknown): unknown {
  if (source === undefined) return target
  const bothArrays = Array.isArray(target) && Array.isArray(source)
  const bothObjects = isObj(target) && isObj(source)
  if (bothArrays) {
    const out = [...(target as unknown[])]
    ;(source as unknown[]).forEach((item, i) => {
      out[i] = mergeIssues(out[i], item)
    })
    return out
  }
  if (bothObjects) {
    const out: Obj = { ...(target as Obj) }
    for (const [key, value] of Object.entries(source as Obj))
      if (key !== '__proto__') out[key] = mergeIssues(out[key], value)
    return out
  }
  if (Array.isArray(source)) return mergeIssues([], source)
  if (isObj(source)) return mergeIssues({}, source)
  return source
}

export interface StepIssueInput {
  stepType: string
  /** The step's values as sent, or as stored when none were sent (undefined: none at all). */
  values: Obj | undefined
  /** Whether the workflow is a dashboard one (`novu-cloud`), which gets the per-type sanitiser. */
  dashboard: boolean
  controlSchema: JsonSchema
  variables: Obj
}

/** A step's issues: `{}` when it has none, as upstream stores it. */
export function buildStepIssues(input: StepIssueInput): StepIssues {
  const sanitized =
    input.values && input.dashboard
      ? dashboardSanitize(input.values, input.stepType)
      : ((frameworkSanitize(input.values) as Obj | undefined) ?? {})
  const fromSchema = schemaIssues(input.controlSchema, sanitized, input.stepType)
  const fromLiquid = liquidIssues(input.values ?? {}, input.variables)
  return mergeIssues(fromSchema, fromLiquid) as StepIssues
}

/** Only a blocking control issue (any without `severity: warning`) makes a workflow ERROR. */
function hasControlIssues(issues: unknown): boolean {
  const controls = isObj(issues) ? issues.controls : undefined
  if (!isObj(controls)) return false
  return Object.values(controls).some(
    (list) =>
      Array.isArray(list) && list.some((issue) => !(isObj(issue) && issue.severity === 'warning'))
  )
}

export function computeWorkflowStatus(
  active: boolean,
  steps: readonly { [field: string]: unknown }[]
): string {
  if (!active) return 'INACTIVE'
  return steps.some((step) => hasControlIssues(step.issues)) ? 'ERROR' : 'ACTIVE'
}

/**
 * Issues by the step's type and values, for each shared variable schema (the workflow's earlier
 * steps and payload schema): the same step written again (test suites write the same workflows
 * over and over) is not checked again. Kept as JSON text, parsed for each step that takes them,
 * as a stored step owns its issues.
 */
const KEPT_ISSUES = 1024
const MAX_VALUES_LENGTH = 16 * 1024
const keptIssues = new BoundedCache<string, string>('step issues', {
  maxEntries: KEPT_ISSUES,
  maxBytes: 4 * 1024 * 1024,
  sizeOf: (issues) => textBytes(issues),
})

/**
 * buildStepIssues for a step checked against its type's own control schema (`controlSchemasFor`)
 * and a variable schema that is never changed (`sharedVariableSchema`).
 */
export function typeStepIssues(input: StepIssueInput): StepIssues {
  const values = JSON.stringify(input.values ?? 0)
  if (values.length > MAX_VALUES_LENGTH || !faithfulKey(values)) return buildStepIssues(input)
  // The variable schema by identity: a shared one is never changed (`sharedVariableSchema`).
  const key = `${identityOf(input.variables)}:${input.stepType}:${input.dashboard}:${values}`
  const found = keptIssues.get(key)
  if (found !== undefined) return found === '{}' ? {} : (JSON.parse(found) as StepIssues)
  const issues = buildStepIssues(input)
  keptIssues.set(key, JSON.stringify(issues))
  return issues
}
