import { badRequest, httpError, InternalError } from '../errors.js'
import type { Workflow } from '../workflow-model/workflows.types.js'
import { isObj, throughPrototype, type Obj } from '../objects.js'
import { copyOf } from './copy-of.js'

/**
 * Upstream's VerifyPayload and the trigger-context check: required template variables (with
 * their types), the date of a scheduled delay, the reserved `tenant`/`actor` variables, and the
 * defaults of the last step's variables.
 */

interface Variable {
  name: string
  type?: string
  required?: boolean
  defaultValue?: unknown
}

const SYSTEM_VARIABLES = ['subscriber', 'step', 'branding', 'tenant', 'preheader', 'actor']
const isSystem = (name: string) => SYSTEM_VARIABLES.includes(name.split('.')[0] ?? name)

const variablesOf = (step: { template?: unknown }): Variable[] => {
  const template = isObj(step.template) ? step.template : {}
  return Array.isArray(template.variables)
    ? (template.variables.filter((v) => isObj(v) && typeof v.name === 'string') as Variable[])
    : []
}

/** `name.split('.').reduce((a, b) => a[b], payload)`, null where a step of the path throws. */
function lookup(payload: Obj, name: string): unknown {
  let value: unknown = payload
  for (const part of name.split('.')) {
    if (value === null || value === undefined) return null
    value = (value as Obj)[part]
  }
  return value
}

const LABEL: Record<string, string> = { String: 'Value', Array: 'Array', Boolean: 'Boolean' }

function checkRequired(variables: Variable[], payload: Obj): string[] {
  const invalid: string[] = []
  for (const variable of variables) {
    if (!variable.required || isSystem(variable.name)) continue
    const value = lookup(payload, variable.name)
    const label = `${variable.name} (${LABEL[variable.type ?? ''] ?? 'undefined'})`
    const fails =
      variable.type === 'Array'
        ? !Array.isArray(value)
        : variable.type === 'Boolean'
          ? value !== true && value !== false
          : variable.type === 'String'
            ? !['string', 'number'].includes(typeof value)
            : value === null || value === undefined
    if (fails) invalid.push(label)
  }
  return invalid
}

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}.\d{3}Z/

/** The keys the payload misses, or throws the 400 of a scheduled delay without a path. */
function invalidKeys(workflow: Workflow, payload: Obj): string[] {
  const invalid: string[] = []
  for (const step of workflow.steps) {
    invalid.push(...checkRequired(variablesOf(step), payload))
    const meta = isObj(step.metadata) ? step.metadata : {}
    if (step.template?.type !== 'delay' || meta.type !== 'scheduled') continue
    const path = meta.delayPath
    if (!path) throw badRequest('Delay path is required for scheduled delay')
    const key = `${String(path)} (ISO Date)`
    if (!Object.prototype.hasOwnProperty.call(payload, String(path))) {
      invalid.push(key)
      continue
    }
    const date = payload[String(path)]
    // Upstream calls `.match` on whatever the payload holds there.
    if (typeof date !== 'string')
      throw new InternalError(`payload.${String(path)}.match is not a function`)
    if (!ISO.test(date)) invalid.push(key)
  }
  return invalid
}

/** 2024-10's 400 for missing or mistyped required variables. */
export function verifyPayload(workflow: Workflow, payload: Obj): void {
  const invalid = invalidKeys(workflow, payload)
  if (invalid.length)
    throw badRequest(`payload is missing required key(s) and type(s): ${invalid.join(', ')}`)
}

/** The same check as the later worker runs it: whether the run aborts. */
export function missingPayloadKeys(workflow: Workflow, payload: Obj): boolean {
  try {
    return invalidKeys(workflow, payload).length > 0
  } catch {
    return true
  }
}

/**
 * The defaults of the last step's variables only (upstream's loop keeps the last). A name
 * through `__proto__`, `constructor` or `prototype` sets nothing, as lodash's `set` does:
 * upstream's own walk would write it onto Object.prototype, for every tenant of the process.
 */
export function payloadDefaults(workflow: Workflow): Obj {
  const last = workflow.steps.at(-1)
  const defaults: Obj = {}
  if (!last) return defaults
  for (const variable of variablesOf(last)) {
    const value = variable.defaultValue
    if (value === undefined || value === null || isSystem(variable.name)) continue
    const path = variable.name.split('.')
    if (throughPrototype(path)) continue
    let target = defaults
    for (const part of path.slice(0, -1)) {
      if (!target[part] || typeof target[part] !== 'object') target[part] = {}
      target = target[part] as Obj
    }
    if (value !== '') target[path.at(-1) as string] = value
  }
  return defaults
}

/**
 * lodash's `merge({}, defaults, payload)`: plain objects merged deeply, the payload winning;
 * a `__proto__` key is left out, as lodash leaves it.
 */
export function mergePayload(defaults: Obj, payload: Obj): Obj {
  const out = copyOf(defaults)
  for (const [key, value] of Object.entries(payload)) {
    if ((value === undefined && key in out) || key === '__proto__') continue
    const current = out[key]
    out[key] = isObj(current) && isObj(value) ? mergePayload(current, value) : value
  }
  return out
}

/** 2024-10's `Trigger is missing: …` for the workflow's reserved `tenant` and `actor` variables. */
export function checkReservedVariables(
  workflow: Workflow,
  context: { tenant?: unknown; actor?: unknown }
): void {
  const types = (workflow.triggers[0]?.reservedVariables ?? []).map((r) => r.type)
  const missing: string[] = []
  for (const type of types) {
    const value = type === 'tenant' ? context.tenant : type === 'actor' ? context.actor : undefined
    if (!value) {
      missing.push(`${type} object`)
      continue
    }
    const field = type === 'tenant' ? 'identifier' : 'subscriberId'
    if (!(value as Obj)[field]) missing.push(`${field} property of ${type}`)
  }
  if (missing.length) throw httpError(400, `Trigger is missing: ${missing.join(', ')}`)
}
