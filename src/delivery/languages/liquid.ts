import { type Obj, isObj } from '../../objects.js'
import { createRequire } from 'node:module'
import type { Liquid, Template } from 'liquidjs'
import type pluralizeType from 'pluralize'
import { nestingDepth } from '../../workflow-model/document-cast.js'
import { RenderError } from './handlebars.js'
import { chargeRender } from '../render-work.js'
import { BoundedCache } from '../../cache.js'
import { escapeJsonText, simpleLiquid } from './simple-liquid.js'
import type { SimpleRender } from './simple-render.js'

/**
 * The Liquid engines upstream renders dashboard (v2) workflows with: `liquidjs` as
 * `@novu/framework` configures it (Novu's `json`, `digest`, `toSentence` and `pluralize`
 * filters; an output escape that keeps the result valid inside a JSON string) and the email
 * renderer's twin that leaves strings as they are. Loaded on the first v2 trigger.
 *
 * Rendering is bounded as Handlebars' is (handlebars.ts): block bodies rendered (each loop
 * iteration counts), characters written, tags nested, and liquidjs' own allocation counter for
 * filters and ranges. Past a bound the render fails, which upstream answers by sending nothing.
 */

export const LIQUID_LIMITS = {
  /** Block bodies (loop iterations, taken branches) one render may run. */
  blocks: 100_000,
  /** Characters of one text, and characters one render may write. */
  outputChars: 1024 * 1024,
  /** Block tags open at once (the parser recurses into each). */
  nesting: 100,
  /** liquidjs' `memoryLimit`: array and string sizes its filters and ranges handle, summed. */
  memory: 4_000_000,
  /** Nesting of an object or array a template prints. */
  valueDepth: 500,
} as const

const requireLazily = createRequire(import.meta.url)
type LiquidModule = typeof import('liquidjs')
let liquidModule: LiquidModule | undefined
let pluralizeModule: typeof pluralizeType | undefined

/** `json` engines escape strings for a JSON string literal; `raw` ones print them as they are. */
export type EscapeMode = 'json' | 'raw'

/**
 * What liquidjs hands a filter as `this` (and the output escape too): the render's context, with
 * the allocation counter its own filters charge. The mock's filters charge it as well, for the
 * characters they make, so that a loop of them stops where a loop of `join` or `append` stops.
 */
interface FilterThis {
  context?: { memoryLimit?: { use(count: number): void } }
}

function charge(self: unknown, count: number) {
  const limit = (self as FilterThis | undefined)?.context?.memoryLimit
  limit?.use(count)
}

/** The render running now: its clock and what it has used so far (renders are synchronous). */
let current = { now: '', blocks: 0 }
/** Block bodies rendered, every render together: the tests bound renders by it, not by a clock. */
let blocksRendered = 0
export const liquidBlocksRendered = () => blocksRendered

function countBlock() {
  blocksRendered++
  if (++current.blocks > LIQUID_LIMITS.blocks)
    throw new RenderError(
      `the template renders more than ${LIQUID_LIMITS.blocks} blocks or loop iterations (novu-mock's limit)`
    )
}

function tooDeep(value: unknown): boolean {
  return nestingDepth(value, LIQUID_LIMITS.valueDepth) > LIQUID_LIMITS.valueDepth
}

/**
 * Objects and arrays as JSON with single quotes (and escaped newlines); the rest as text. The
 * JSON's length is charged to the render calling it (`self`, a filter's `this`).
 */
function singleQuoted(value: unknown, spaces: unknown = 0, self?: unknown): string {
  if (value !== null && typeof value === 'object') {
    if (tooDeep(value))
      throw new RenderError(
        `the template prints a value nested deeper than ${LIQUID_LIMITS.valueDepth} levels (novu-mock's limit)`
      )
    const text = JSON.stringify(value, null, spaces as number) ?? ''
    charge(self, text.length)
    return text.replace(/"/g, "'").replace(/\n/g, '\\n')
  }
  return value === undefined || value === null ? '' : String(value)
}

/** The framework's output escape: strings made safe inside a JSON string literal. */
function jsonEscape(this: unknown, output: unknown): string {
  if (typeof output === 'string') return escapeJsonText(output)
  return singleQuoted(output, 0, this)
}

/** A dotted path read the framework's way: missing → '', objects → JSON ('{}' → ''). */
function nestedText(self: unknown, item: unknown, path: string): string {
  let value: unknown = item
  for (const key of path.split('.'))
    value = isObj(value) || Array.isArray(value) ? (value as Obj)[key] : undefined
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'object') {
    if (tooDeep(value)) throw new RenderError('the digested value is nested too deeply')
    const text = JSON.stringify(value)
    charge(self, text.length)
    return text === '{}' ? '' : text
  }
  return String(value)
}

/** Each listed item's text at `keyPath`, or the items; the list's length is charged. */
function namesOf(self: unknown, array: unknown[], keyPath: unknown): unknown[] {
  charge(self, array.length)
  if (!keyPath) return array
  return array.map((item) => (isObj(item) ? nestedText(self, item, String(keyPath)) : ''))
}

/** Array.join's text of each value: null and undefined as nothing. */
const joinTexts = (values: unknown[]) =>
  values.map((v) => (v === null || v === undefined ? '' : String(v)))

/** The texts joined by `separator`, the length of the result charged before it is made. */
function joinCharged(self: unknown, texts: string[], separator: string): string {
  let size = separator.length * Math.max(texts.length - 1, 0)
  for (const text of texts) size += text.length
  charge(self, size)
  return texts.join(separator)
}

/** `{{ list | digest: 2, 'name' }}`: "John, Josh and 2 others". */
function digestFilter(
  this: unknown,
  array: unknown,
  maxNames: unknown = 2,
  keyPath?: unknown,
  separator: unknown = ', '
) {
  if (!Array.isArray(array) || array.length === 0) return ''
  const max = maxNames as number
  const values = namesOf(this, array, keyPath)
  if (values.length === 1) return values[0]
  if (values.length === 2) return joinCharged(this, [String(values[0]), String(values[1])], ' and ')
  if (max >= values.length) {
    const head = joinCharged(this, joinTexts(values.slice(0, -1)), String(separator))
    return joinCharged(this, [head, String(values.at(-1))], ' and ')
  }
  const others = values.length - max
  const head = joinCharged(this, joinTexts(values.slice(0, max)), String(separator))
  return `${head} and ${others} ${others === 1 ? 'other' : 'others'}`
}

const plural = (word: string, count: number) => {
  pluralizeModule ??= requireLazily('pluralize') as typeof pluralizeType
  return pluralizeModule(word, count)
}

/** `{{ list | toSentence: 'name', 2, 'other' }}`: "John, Josh, and 2 others". */
function toSentenceFilter(
  this: unknown,
  array: unknown,
  keyPath: unknown = '',
  limit: unknown = 2,
  overflowSuffix: unknown = 'other',
  wordsConnector: unknown = ', ',
  twoWordsConnector: unknown = ' and ',
  lastWordConnector: unknown = ', and '
) {
  if (!Array.isArray(array) || array.length === 0) return ''
  const values = namesOf(this, array, keyPath)
  const n = values.length
  const max = limit as number
  if (n === 1) return values[0]
  if (n === 2)
    return joinCharged(this, [String(values[0]), String(values[1])], String(twoWordsConnector))
  if (max >= n) {
    const head = joinCharged(this, joinTexts(values.slice(0, n - 1)), String(wordsConnector))
    return joinCharged(this, [head, String(values[n - 1])], String(lastWordConnector))
  }
  const more = n - max
  const connector = max === 1 ? twoWordsConnector : lastWordConnector
  const head = joinCharged(this, joinTexts(values.slice(0, max)), String(wordsConnector))
  return `${head}${String(connector)}${more} ${plural(String(overflowSuffix), more)}`
}

/** `{{ count | pluralize: 'event' }}`: "2 events"; nothing for zero. */
function pluralizeFilter(
  item: unknown,
  singular: unknown = '',
  pluralForm: unknown = '',
  showCount: unknown = 'true'
) {
  if (item === null || item === undefined) return ''
  let count: number
  if (Array.isArray(item)) count = item.length
  else if (typeof item === 'object') count = Object.keys(item).length
  else count = Number(item)
  if (Number.isNaN(count) || count <= 0) return ''
  const word = pluralForm ? (count === 1 ? singular : pluralForm) : plural(String(singular), count)
  return showCount === 'true' ? `${count} ${String(word)}` : String(word)
}

/** No templates on disk: `include`, `render` and `layout` find nothing, as on a server without them. */
const NO_FILES = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (file: string) => {
    throw new Error(`Failed to lookup "${file}"`)
  },
  readFileSync: (file: string) => {
    throw new Error(`Failed to lookup "${file}"`)
  },
  resolve: (_root: string, file: string) => file,
  contains: async () => false,
  dirname: () => '',
  sep: '/',
}

const engines: Partial<Record<EscapeMode, Liquid>> = {}

function createEngine(mode: EscapeMode): Liquid {
  liquidModule ??= requireLazily('liquidjs') as LiquidModule
  const engine = new liquidModule.Liquid({
    outputEscape:
      mode === 'json'
        ? jsonEscape
        : function (this: unknown, output: unknown) {
            return singleQuoted(output, 0, this)
          },
    // Upstream's workers run in UTC; the mock must not depend on the host's zone.
    timezoneOffset: 0,
    memoryLimit: LIQUID_LIMITS.memory,
    fs: NO_FILES,
    relativeReference: false,
    root: [],
    partials: [],
    layouts: [],
  })
  engine.registerFilter('json', function (this: unknown, value: unknown, spaces: unknown) {
    return singleQuoted(value, spaces, this)
  })
  engine.registerFilter('digest', digestFilter)
  engine.registerFilter('toSentence', toSentenceFilter)
  engine.registerFilter('pluralize', pluralizeFilter)
  // `now` and `today` are the environment's clock, not the host's.
  for (const name of [
    'date',
    'date_to_xmlschema',
    'date_to_rfc822',
    'date_to_string',
    'date_to_long_string',
  ]) {
    const original = engine.filters[name]
    if (typeof original !== 'function') continue
    engine.registerFilter(name, function (this: unknown, value: unknown, ...args: unknown[]) {
      const sent = value === 'now' || value === 'today' ? current.now : value
      return (original as (...a: unknown[]) => unknown).call(this, sent, ...args)
    })
  }
  engine.registerFilter('inspect', function (this: unknown, value: unknown, space: unknown) {
    if (value !== null && typeof value === 'object' && tooDeep(value))
      throw new RenderError('the template inspects a value nested too deeply')
    const text = JSON.stringify(value, null, space as number) ?? ''
    charge(this, text.length)
    return text
  })
  // Each block body rendered (a loop's iteration, a branch taken) counts against the budget.
  const renderer = engine.renderer as unknown as {
    renderTemplates: (templates: unknown[], ctx: unknown, emitter?: unknown) => Generator
  }
  const renderTemplates = renderer.renderTemplates.bind(renderer)
  renderer.renderTemplates = function* (templates, ctx, emitter) {
    countBlock()
    return yield* renderTemplates(templates, ctx, emitter)
  }
  return engine
}

const engineFor = (mode: EscapeMode) => (engines[mode] ??= createEngine(mode))

const BLOCK_TAGS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow'])

/**
 * How deeply the text's block tags nest (those inside `{% liquid %}` too), up to the limit + 1.
 * One pass, each tag running to the first `%}` after it, as liquidjs' tokenizer reads them.
 */
function tagNesting(text: string): number {
  let depth = 0
  let deepest = 0
  const visit = (name: string) => {
    if (BLOCK_TAGS.has(name)) deepest = Math.max(deepest, ++depth)
    else if (name.startsWith('end') && BLOCK_TAGS.has(name.slice(3))) depth = Math.max(0, depth - 1)
  }
  let at = text.indexOf('{%')
  while (at >= 0 && deepest <= LIQUID_LIMITS.nesting) {
    const end = text.indexOf('%}', at + 2)
    if (end < 0) break
    const inner = text.slice(at + 2, end).replace(/^-/, '')
    const name = /^\s*(\w+)/.exec(inner)?.[1] ?? ''
    let next = end + 2
    if (name === 'raw' || name === 'comment') {
      const close = text.indexOf(`end${name}`, next)
      if (close < 0) break
      next = close
    } else if (name === 'liquid')
      for (const line of inner.replace(/^\s*liquid/, '').split('\n')) {
        const word = /^\s*(\w+)/.exec(line)?.[1]
        if (word) visit(word)
      }
    else visit(name)
    at = text.indexOf('{%', next)
  }
  return deepest
}

/**
 * A text made ready to render: the simple renderer's (simple-liquid.ts), or liquidjs' parsed
 * templates, parsed when a render first needs them.
 */
interface Prepared {
  simple?: SimpleRender
  templates?: Template[]
}

/** Prepared texts by text (and engine): a workflow is triggered far more often than written. */
const MAX_PARSED_CHARS = 64 * 1024
const prepared = new BoundedCache<string, Prepared>('liquid templates', {
  maxEntries: 500,
  maxBytes: 16 * 1024 * 1024,
  // The text, its tokens and the parsed tree: a few times the text.
  sizeOf: (_templates, _key, keyBytes) => 3 * keyBytes,
})

function parse(engine: Liquid, text: string): Template[] {
  if (tagNesting(text) > LIQUID_LIMITS.nesting)
    throw new RenderError(
      `the template nests tags deeper than ${LIQUID_LIMITS.nesting} levels (novu-mock's limit)`
    )
  return engine.parse(text)
}

function prepare(mode: EscapeMode, text: string): Prepared {
  const key = `${mode}:${text}`
  const cached = prepared.get(key)
  if (cached) return cached
  if (text.length > LIQUID_LIMITS.outputChars)
    throw new RenderError(
      `the template is longer than ${LIQUID_LIMITS.outputChars} characters (novu-mock's limit)`
    )
  const simple = simpleLiquid(text, mode)
  const made: Prepared = simple ? { simple } : { templates: parse(engineFor(mode), text) }
  return text.length <= MAX_PARSED_CHARS ? prepared.set(key, made) : made
}

/** A failure of the engine (syntax, a filter that throws, a limit) as a RenderError. */
function asRenderError(error: unknown): RenderError {
  let cause: unknown = error
  for (let i = 0; i < 10 && cause; i++) {
    if (cause instanceof RenderError) return cause
    cause = (cause as { originalError?: unknown }).originalError
  }
  if (error instanceof RangeError) return new RenderError('the template is nested too deeply')
  return new RenderError(error instanceof Error ? error.message : String(error))
}

let sessionDepth = 0

/**
 * Runs `work` as one render: the environment's time for `now`, and a fresh budget unless a
 * session is open, whose renders (one message's texts) share one.
 */
function run<T>(now: string, work: () => T): T {
  const outer = current
  if (!sessionDepth) current = { now, blocks: 0 }
  try {
    return work()
  } catch (error) {
    throw asRenderError(error)
  } finally {
    if (!sessionDepth) current = outer
  }
}

/** Runs several renders on one budget (the loop iterations of all of them count together). */
export function liquidSession<T>(now: string, work: () => T): T {
  const outer = current
  if (!sessionDepth) current = { now, blocks: 0 }
  sessionDepth++
  try {
    return work()
  } finally {
    sessionDepth--
    if (!sessionDepth) current = outer
  }
}

/** Renders one Liquid text with the variables (synchronously). */
export function renderLiquid(text: string, scope: Obj, mode: EscapeMode, now: string): string {
  let blocks = 0
  let chars = 0
  try {
    return run(now, () => {
      const start = current.blocks
      try {
        const ready = prepare(mode, text)
        let out = ready.simple?.(scope)
        if (out === undefined) {
          const engine = engineFor(mode)
          out = engine.renderSync((ready.templates ??= parse(engine, text)), scope) as string
        } else countBlock()
        chars = out.length
        if (out.length > LIQUID_LIMITS.outputChars)
          throw new RenderError(
            `the rendered text is longer than ${LIQUID_LIMITS.outputChars} characters (novu-mock's limit)`
          )
        return out
      } finally {
        // The template itself is one block: what it loops and branches over is the work.
        blocks = Math.max(0, current.blocks - start - 1)
      }
    })
  } finally {
    // Outside the render's own errors: past the request's allowance, the request is refused.
    chargeRender(chars, blocks)
  }
}

/** The value of one Liquid expression (`payload.items`), as the Maily loops read it. */
export function evalLiquid(expression: string, scope: Obj, now: string): unknown {
  return run(now, () => engineFor('raw').evalValueSync(expression, scope))
}
