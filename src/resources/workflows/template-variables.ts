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

/**
 * Walks a Handlebars body the way upstream's getTemplateVariables does: strings, arrays,
 * booleans, then hash pairs. Upstream prefixes a block's variables after the fact; passing the
 * prefix down gives the same names without copying them at every level of nesting.
 */
function walk(body: Node[], prefix = ''): ExtractedVariable[] {
  const strings: ExtractedVariable[] = []
  const arrays: ExtractedVariable[] = []
  const booleans: ExtractedVariable[] = []
  const pairs: ExtractedVariable[] = []
  for (const node of body) {
    const helper = node.path?.original
    if (node.type === 'HashPair') {
      const name = node.value?.original
      if (isVariableName(name)) pairs.push({ name: prefix + name, type: 'String' })
    } else if (node.type === 'MustacheStatement') {
      const name = firstName(node)
      if (helper === 'i18n') {
        strings.push(...walk(node.hash?.pairs ?? [], prefix))
        continue
      }
      if (!isVariableName(name)) continue
      if (node.params?.[0]?.original && !KNOWN_HELPERS.has(String(helper))) continue
      strings.push({ name: prefix + name, type: 'String' })
    } else if (node.type === 'BlockStatement' && (helper === 'each' || helper === 'with')) {
      const name = firstName(node)
      if (!isVariableName(name)) continue
      if (helper === 'each') arrays.push({ name: prefix + name, type: 'Array' })
      arrays.push(...walk(node.program?.body ?? [], `${prefix}${name}.`))
    } else if (node.type === 'BlockStatement' && (helper === 'if' || helper === 'unless')) {
      const name = firstName(node)
      if (!isVariableName(name) || (node.params?.length ?? 0) > 1) continue
      booleans.push(
        { name: prefix + name, type: 'Boolean' },
        ...walk(node.program?.body ?? [], prefix)
      )
    }
  }
  return [...strings, ...arrays, ...booleans, ...pairs]
}

export const MAX_BLOCKS_PER_TEXT = 500

function countBlocks(text: string): number {
  let count = 0
  for (let at = text.indexOf('{{#'); at !== -1; at = text.indexOf('{{#', at + 3)) count++
  return count
}

// Consumers create many workflows from the same few templates: parsing is most of the cost.
const MAX_CACHED_TEXTS = 1000
const cache = new Map<string, readonly ExtractedVariable[] | null>()

/** Upstream skips empty texts and fails on anything Handlebars cannot parse, a number included. */
export function extractVariables(content: unknown): readonly ExtractedVariable[] {
  if (!content) return []
  if (typeof content !== 'string') return parse(content)
  let found = cache.get(content)
  if (found === undefined) {
    try {
      found = parse(content)
    } catch (error) {
      found = null
      remember(content, found)
      throw error
    }
    remember(content, found)
  }
  if (found === null) throw badRequest('Failed to extract variables')
  return found
}

function remember(text: string, variables: readonly ExtractedVariable[] | null) {
  if (cache.size >= MAX_CACHED_TEXTS) cache.clear()
  cache.set(text, variables)
}

function parse(content: unknown): readonly ExtractedVariable[] {
  // Handlebars' parser slows down with the square of the block nesting (3,000 blocks: seconds);
  // the mock refuses more blocks than any real template has rather than stall every client.
  if (typeof content === 'string' && countBlocks(content) > MAX_BLOCKS_PER_TEXT)
    throw badRequest('Failed to extract variables')
  try {
    return Object.freeze(
      walk(Handlebars.parseWithoutProcessing(content as string).body as unknown as Node[])
    )
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
