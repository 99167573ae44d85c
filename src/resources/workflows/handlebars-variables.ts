import { ApiError, badRequest, InternalError } from '../../errors.js'
import { cacheGet, cacheSet } from './handlebars-variables-cache.js'
import {
  templateLimitErrors,
  TEMPLATE_LIMITS,
  TemplateBudget,
  type TextCost,
} from './handlebars-limits.js'
import { parseCounted } from './handlebars-parse.js'
import type { Obj } from '../../objects.js'

type VariableType = 'String' | 'Array' | 'Boolean'
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
  program?: { body: Iterable<Node> }
  hash?: { pairs?: Iterable<Node> }
  value?: { original?: unknown }
}

/** Upstream tests names with String.match: anything but a string makes the extraction fail. */
function isVariableName(value: unknown): value is string {
  if (typeof value !== 'string') throw new TypeError('not a variable name')
  return /^[a-zA-Z_]/.test(value)
}

const firstName = (node: Node) => node.params?.[0]?.original || node.path?.original

/** One walk's tally, and what it answers when blocks nest too deeply. */
interface Walk {
  cost: TextCost
  /** An AST given as an object has no lexer to count it: its nodes are counted instead. */
  countsNodes: boolean
  tooDeep: () => Error
}

function append<T>(to: T[], items: readonly T[]) {
  for (const item of items) to.push(item)
}

/** AST nodes walked, every template together: the walk's work, as tokensLexed is the parse's. */
let walked = 0
export const nodesWalked = () => walked

/**
 * Walks a Handlebars body the way upstream's getTemplateVariables does: strings, arrays,
 * booleans, then hash pairs. Upstream prefixes a block's variables after the fact; passing the
 * prefix down gives the same names without copying them at every level of nesting. A name in
 * a block carries every enclosing block's name, so the names are counted before they are made.
 */
function walk(body: Iterable<Node>, prefix: string, w: Walk, depth: number): ExtractedVariable[] {
  if (depth > TEMPLATE_LIMITS.depth) throw w.tooDeep()
  const strings: ExtractedVariable[] = []
  const arrays: ExtractedVariable[] = []
  const booleans: ExtractedVariable[] = []
  const pairs: ExtractedVariable[] = []
  const add = (list: ExtractedVariable[], name: string, type: VariableType) => {
    w.cost.nameChars += prefix.length + name.length
    if (++w.cost.variables > TEMPLATE_LIMITS.variables) throw templateLimitErrors.variables()
    if (w.cost.nameChars > TEMPLATE_LIMITS.nameChars) throw templateLimitErrors.nameChars()
    list.push({ name: prefix + name, type })
  }
  for (const node of body) {
    walked++
    if (w.countsNodes && ++w.cost.tokens > TEMPLATE_LIMITS.tokens)
      throw templateLimitErrors.tokens()
    const helper = node.path?.original
    if (node.type === 'HashPair') {
      const name = node.value?.original
      if (isVariableName(name)) add(pairs, name, 'String')
    } else if (node.type === 'MustacheStatement') {
      const name = firstName(node)
      if (helper === 'i18n') {
        append(strings, walk(node.hash?.pairs ?? [], prefix, w, depth))
        continue
      }
      if (!isVariableName(name)) continue
      if (node.params?.[0]?.original && !KNOWN_HELPERS.has(String(helper))) continue
      add(strings, name, 'String')
    } else if (node.type === 'BlockStatement' && (helper === 'each' || helper === 'with')) {
      const name = firstName(node)
      if (!isVariableName(name)) continue
      if (helper === 'each') add(arrays, name, 'Array')
      append(arrays, walk(node.program?.body ?? [], `${prefix}${name}.`, w, depth + 1))
    } else if (node.type === 'BlockStatement' && (helper === 'if' || helper === 'unless')) {
      const name = firstName(node)
      if (!isVariableName(name) || (node.params?.length ?? 0) > 1) continue
      add(booleans, name, 'Boolean')
      append(booleans, walk(node.program?.body ?? [], prefix, w, depth + 1))
    }
  }
  append(strings, arrays)
  append(strings, booleans)
  append(strings, pairs)
  return strings
}

const FAILED = 'Failed to extract variables'
const isOurs = (error: unknown) => error instanceof ApiError || error instanceof InternalError
const noCost = (): TextCost => ({ tokens: 0, variables: 0, nameChars: 0 })

/** Upstream's extraction: whatever goes wrong inside it answers 400 "Failed to extract variables". */
function extract(body: () => unknown, w: Walk): readonly ExtractedVariable[] {
  try {
    return Object.freeze(walk(body() as Iterable<Node>, '', w, 0))
  } catch (error) {
    throw isOurs(error) ? error : badRequest(FAILED)
  }
}

/**
 * Upstream hands an object to Handlebars' parseWithoutProcessing, which returns a Program as it
 * is and fails on anything else. Such an AST is held to the text's limits, its nodes counted as
 * tokens; one nesting blocks past the depth limit is over 300 levels of JSON, which MongoDB
 * refuses to store: upstream answers 500 then, and so does the mock, without walking it.
 */
function extractAst(content: unknown, budget: TemplateBudget) {
  const program = content as { type?: unknown; body?: unknown }
  if (program.type !== 'Program') throw badRequest(FAILED)
  const tooDeep = () => new InternalError('BSON document nesting is deeper than 100 levels')
  const w: Walk = { cost: noCost(), countsNodes: true, tooDeep }
  const variables = extract(() => program.body, w)
  budget.charge(w.cost)
  return variables
}

/** Upstream skips empty texts and fails on anything Handlebars cannot parse, a number included. */
function extractVariables(
  content: unknown,
  budget = new TemplateBudget()
): readonly ExtractedVariable[] {
  if (!content) return []
  if (typeof content !== 'string') return extractAst(content, budget)
  budget.chargeText(content.length)
  let found = cacheGet(content)
  if (!found) {
    const w: Walk = { cost: noCost(), countsNodes: false, tooDeep: templateLimitErrors.depth }
    const variables = extract(() => {
      const parsed = parseCounted(content)
      w.cost.tokens = parsed.tokens
      return parsed.body
    }, w)
    found = { variables, cost: w.cost }
    cacheSet(content, found)
  }
  budget.charge(found.cost)
  return found.variables
}

type Step = { template?: Record<string, unknown>; filters?: unknown; metadata?: unknown }
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

/** The name up to its first dot, without the array `split` would make. */
const prefixOf = (name: string) => {
  const dot = name.indexOf('.')
  return dot < 0 ? name : name.slice(0, dot)
}

/** The trigger's variables, reserved variables and subscriber variables for a list of steps. */
export function extractTriggerVariables(steps: Step[]) {
  const found: ExtractedVariable[] = []
  const reserved = new Map<string, string>()
  const budget = new TemplateBudget()
  for (const step of steps) {
    if (!step.template) continue
    for (const text of stepTexts(asObj(step.template))) {
      const extracted = extractVariables(text, budget)
      append(found, extracted)
      // Only names in the step texts make reserved variables, not filter fields or digest keys.
      for (const v of extracted) {
        const type = prefixOf(v.name)
        if (type === 'tenant' || type === 'actor') reserved.set(type, RESERVED[type])
      }
    }
  }
  for (const step of steps) append(found, stepVariables(step, asObj(step.template)))
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
