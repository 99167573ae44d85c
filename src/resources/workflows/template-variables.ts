import Handlebars from 'handlebars'
import { badRequest } from '../../errors.js'

export type VariableType = 'String' | 'Array' | 'Boolean'
export interface ExtractedVariable {
  name: string
  type: VariableType
}

// Helpers whose first argument upstream reads as a variable (`{{titlecase word}}` gives `word`).
const KNOWN_HELPERS = new Set([
  'equals',
  'titlecase',
  'uppercase',
  'lowercase',
  'pluralize',
  'dateFormat',
  'unique',
  'groupBy',
  'sortBy',
  'numberFormat',
  'i18n',
  'gt',
  'gte',
  'lt',
  'lte',
  'eq',
  'ne',
])
const SYSTEM_PREFIXES = new Set(['subscriber', 'step', 'branding', 'tenant', 'preheader', 'actor'])
const RESERVED = { tenant: 'identifier', actor: 'subscriberId' } as const

type Node = {
  type: string
  path?: { original?: unknown }
  params?: { original?: unknown }[]
  program?: { body: Node[] }
  hash?: { pairs?: Node[] }
  value?: { original?: unknown }
}

/** Upstream tests names with String.match: anything but a string makes the extraction fail. */
function isVariableName(value: unknown): value is string {
  if (typeof value !== 'string') throw new TypeError('not a variable name')
  return /^[a-zA-Z_]/.test(value)
}

const firstName = (node: Node) => node.params?.[0]?.original || node.path?.original

/** Walks a Handlebars body the way upstream's getTemplateVariables does: strings, arrays, booleans, then hash pairs. */
function walk(body: Node[]): ExtractedVariable[] {
  const strings: ExtractedVariable[] = []
  const arrays: ExtractedVariable[] = []
  const booleans: ExtractedVariable[] = []
  const pairs: ExtractedVariable[] = []
  for (const node of body) {
    const helper = node.path?.original
    if (node.type === 'HashPair') {
      if (isVariableName(node.value?.original))
        pairs.push({ name: node.value.original as string, type: 'String' })
    } else if (node.type === 'MustacheStatement') {
      const name = firstName(node)
      if (helper === 'i18n') {
        strings.push(...walk(node.hash?.pairs ?? []))
        continue
      }
      if (!isVariableName(name)) continue
      if (node.params?.[0]?.original && !KNOWN_HELPERS.has(String(helper))) continue
      strings.push({ name, type: 'String' })
    } else if (node.type === 'BlockStatement' && (helper === 'each' || helper === 'with')) {
      const name = firstName(node)
      if (!isVariableName(name)) continue
      const nested = walk(node.program?.body ?? []).map((v) => ({
        ...v,
        name: `${name}.${v.name}`,
      }))
      if (helper === 'each') arrays.push({ name, type: 'Array' })
      arrays.push(...nested)
    } else if (node.type === 'BlockStatement' && (helper === 'if' || helper === 'unless')) {
      const name = firstName(node)
      if (!isVariableName(name) || (node.params?.length ?? 0) > 1) continue
      booleans.push({ name, type: 'Boolean' }, ...walk(node.program?.body ?? []))
    }
  }
  return [...strings, ...arrays, ...booleans, ...pairs]
}

/** Upstream skips empty texts and fails on anything Handlebars cannot parse, a number included. */
export function extractVariables(content: unknown): ExtractedVariable[] {
  if (!content) return []
  try {
    return walk(Handlebars.parseWithoutProcessing(content as string).body as unknown as Node[])
  } catch {
    throw badRequest('Failed to extract variables')
  }
}

type Step = { template?: Record<string, unknown>; filters?: unknown; metadata?: unknown }
type Obj = Record<string, unknown>
const asObj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {})

/** The texts of a step that upstream scans, per channel. */
function stepTexts(template: Obj): unknown[] {
  switch (template.type) {
    case 'in_app':
      return [template.content, asObj(asObj(template.cta).data).url || '']
    case 'sms':
      return [template.content]
    case 'push':
      return [template.content, template.title]
  }
  if (Array.isArray(template.content)) {
    return [
      template.subject || '',
      ...template.content.flatMap((block) => [asObj(block).url || '', asObj(block).content]),
    ]
  }
  return typeof template.content === 'string' ? [template.content] : []
}

function stepVariables(step: Step, template: Obj): ExtractedVariable[] {
  const out: ExtractedVariable[] = []
  const filters = Array.isArray(step.filters) ? step.filters : []
  for (const filter of filters) {
    const children = asObj(filter).children
    for (const child of Array.isArray(children) ? children : []) {
      const { on, field } = asObj(child)
      if (on === 'payload' && typeof field === 'string') out.push({ name: field, type: 'String' })
    }
  }
  const metadata = asObj(step.metadata)
  if (metadata.type === 'scheduled' && typeof metadata.delayPath === 'string')
    out.push({ name: metadata.delayPath, type: 'String' })
  if (template.type === 'digest' && typeof metadata.digestKey === 'string')
    out.push({ name: metadata.digestKey, type: 'String' })
  return out
}

const prefixOf = (name: string) => name.split('.')[0] ?? name

/** The trigger's variables, reserved variables and subscriber variables for a list of steps. */
export function extractTriggerVariables(steps: Step[]) {
  const found: ExtractedVariable[] = []
  const reserved = new Map<string, string>()
  for (const step of steps) {
    if (!step.template) continue
    for (const text of stepTexts(asObj(step.template))) {
      const extracted = extractVariables(text)
      found.push(...extracted)
      // Only names in the step texts make reserved variables, not filter fields or digest keys.
      for (const v of extracted) {
        const type = prefixOf(v.name)
        if (type === 'tenant' || type === 'actor') reserved.set(type, RESERVED[type])
      }
    }
  }
  for (const step of steps) found.push(...stepVariables(step, asObj(step.template)))
  // Position of the first occurrence, value of the last: what a Map keyed by name keeps.
  const byName = new Map<string, ExtractedVariable>()
  for (const v of found) if (!SYSTEM_PREFIXES.has(prefixOf(v.name))) byName.set(v.name, v)

  const types = new Set(steps.map((s) => asObj(s.template).type))
  const subscriber = [
    ...(types.has('sms') ? ['phone'] : []),
    ...(types.has('email') ? ['email'] : []),
  ]
  return {
    variables: [...byName.values()],
    reservedVariables: [...reserved].map(([type, name]) => ({
      type,
      variables: [{ name, type: 'String' }],
    })),
    subscriberVariables: subscriber,
  }
}
