import Handlebars from 'handlebars'
import { badRequest } from '../../errors.js'

export type VariableType = 'String' | 'Array' | 'Boolean'
export interface ExtractedVariable {
  name: string
  type: VariableType
}

// Helpers whose first argument upstream reads as a variable (`{{titlecase word}}` gives `word`).
const KNOWN_HELPERS = new Set([
  'equals', 'titlecase', 'uppercase', 'lowercase', 'pluralize', 'dateFormat', 'unique', 'groupBy',
  'sortBy', 'numberFormat', 'i18n', 'gt', 'gte', 'lt', 'lte', 'eq', 'ne',
])
const SYSTEM_PREFIXES = new Set(['subscriber', 'step', 'branding', 'tenant', 'preheader', 'actor'])
const RESERVED = { tenant: 'identifier', actor: 'subscriberId' } as const

type Node = {
  type: string
  path?: { original?: unknown }
  params?: { original?: unknown }[]
  program?: { body: Node[] }
  hash?: { pairs?: { value?: { original?: unknown } }[] }
}

function nameOf(value: unknown): string | undefined {
  if (value === undefined) return undefined
  // Upstream tests the name with a string regex; a number literal makes the whole extraction fail.
  if (typeof value !== 'string') throw new TypeError('not a variable name')
  return /^[a-zA-Z_]/.test(value) ? value : undefined
}

/** Walks a Handlebars body the way upstream's getTemplateVariables does. */
function walk(body: Node[], prefix = ''): ExtractedVariable[] {
  const at = (name: string) => prefix + name
  const strings: ExtractedVariable[] = []
  const arrays: ExtractedVariable[] = []
  const booleans: ExtractedVariable[] = []
  for (const node of body) {
    const helper = node.path?.original
    if (node.type === 'MustacheStatement') {
      if (helper === 'i18n') {
        for (const pair of node.hash?.pairs ?? []) {
          const name = nameOf(pair.value?.original)
          if (name) strings.push({ name: at(name), type: 'String' })
        }
        continue
      }
      const first = node.params?.[0]
      const name = nameOf(first?.original || helper)
      if (!name || (first && !KNOWN_HELPERS.has(String(helper)))) continue
      strings.push({ name: at(name), type: 'String' })
    } else if (node.type === 'BlockStatement' && (helper === 'each' || helper === 'with')) {
      const name = nameOf(node.params?.[0]?.original)
      if (!name) continue
      if (helper === 'each') arrays.push({ name: at(name), type: 'Array' })
      arrays.push(...walk(node.program?.body ?? [], `${at(name)}.`))
    } else if (node.type === 'BlockStatement' && (helper === 'if' || helper === 'unless')) {
      const name = nameOf(node.params?.[0]?.original)
      if (!name || (node.params?.length ?? 0) > 1) continue
      booleans.push({ name: at(name), type: 'Boolean' })
      booleans.push(...walk(node.program?.body ?? [], prefix))
    }
  }
  return [...strings, ...arrays, ...booleans]
}

export function extractVariables(content: unknown): ExtractedVariable[] {
  if (typeof content !== 'string' || content === '') return []
  try {
    return walk(Handlebars.parseWithoutProcessing(content).body as unknown as Node[])
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
      return [template.content, asObj(asObj(template.cta).data).url]
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
  return [template.content]
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
  for (const step of steps) {
    if (!step.template) continue
    const template = asObj(step.template)
    for (const text of stepTexts(template)) found.push(...extractVariables(text))
    found.push(...stepVariables(step, template))
  }
  // Position of the first occurrence, value of the last: what a Map keyed by name keeps.
  const byName = new Map<string, ExtractedVariable>()
  for (const v of found) if (!SYSTEM_PREFIXES.has(prefixOf(v.name))) byName.set(v.name, v)

  const reserved = new Map<string, string>()
  for (const v of found) {
    const type = prefixOf(v.name)
    if (type === 'tenant' || type === 'actor') reserved.set(type, RESERVED[type])
  }
  const types = new Set(steps.map((s) => asObj(s.template).type))
  const subscriber = [...(types.has('sms') ? ['phone'] : []), ...(types.has('email') ? ['email'] : [])]
  return {
    variables: [...byName.values()],
    reservedVariables: [...reserved].map(([type, name]) => ({
      type,
      variables: [{ name, type: 'String' }],
    })),
    subscriberVariables: subscriber,
  }
}
