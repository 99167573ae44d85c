import type Handlebars from 'handlebars'
import { BoundedCache } from '../../cache.js'
import { formatDate } from './date-format.js'
import { chargeRender } from '../render-work.js'
import { loadHandlebars } from './handlebars-build.js'
import { simpleTemplate } from './simple-render.js'

/**
 * Upstream's CompileTemplate for workflows created over v1: Handlebars with HTML escaping, Novu's
 * helpers, and `&#x27;` turned back into `'` afterwards. A failure (a syntax error, a helper that
 * throws) is a RenderError: the step then creates no message, as upstream's does.
 */
export class RenderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RenderError'
  }
}

/**
 * Block iterations (`#each`, `#with` over arrays) one render may run: nested loops over a large
 * payload multiply, and one trigger renders once per subscriber and step. Past the limit the
 * render fails, which upstream answers by creating no message.
 */
const RENDER_LIMITS = { iterations: 100_000, outputChars: 1024 * 1024 } as const

type Options = Handlebars.HelperOptions

let iterations = 0

// Upstream's block helpers call `options.fn(this)` from an arrow function at module level:
// `this` is the module's exports object, so a block body sees none of the render's variables.
const MODULE_SCOPE = {}
const assertResult = (condition: boolean, options: Options | undefined) => {
  const fn = condition ? options?.fn : options?.inverse
  return typeof fn === 'function' ? fn(MODULE_SCOPE) : condition
}

const asArray = (value: unknown): Record<string, unknown>[] | undefined =>
  Array.isArray(value) ? (value as Record<string, unknown>[]) : undefined

function createInstance() {
  // Loaded at the first render: a start that renders nothing neither compiles nor runs it.
  const hb = loadHandlebars().create()
  const each = hb.helpers.each as Handlebars.HelperDelegate
  hb.registerHelper('each', function (this: unknown, context: unknown, options: Options) {
    const size = Array.isArray(context)
      ? context.length
      : context && typeof context === 'object'
        ? Object.keys(context).length
        : 0
    iterations += size
    if (iterations > RENDER_LIMITS.iterations)
      throw new RenderError(
        `the template loops more than ${RENDER_LIMITS.iterations} times (novu-mock's limit)`
      )
    return each.call(this, context, options)
  })
  hb.registerHelper('json', (context: unknown) => JSON.stringify(context))
  hb.registerHelper('equals', function (this: unknown, a: unknown, b: unknown, options: Options) {
    return a == b ? options.fn(this) : options.inverse(this)
  })
  hb.registerHelper('titlecase', (value: unknown) =>
    typeof value === 'string'
      ? value
          .split(' ')
          .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
          .join(' ')
      : callString(value, 'split')
  )
  hb.registerHelper('uppercase', (value: unknown) =>
    typeof value === 'string' ? value.toUpperCase() : callString(value, 'toUpperCase')
  )
  hb.registerHelper('lowercase', (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : callString(value, 'toLowerCase')
  )
  hb.registerHelper('pluralize', (n: unknown, single: unknown, plural: unknown) =>
    n === 1 ? single : plural
  )
  hb.registerHelper('dateFormat', (date: unknown, pattern: unknown) => {
    if (date && pattern && !Number.isNaN(Date.parse(date as string)))
      return formatDate(new Date(date as string), String(pattern))
    return date
  })
  hb.registerHelper('groupBy', (array: unknown, property: string) => {
    const items = asArray(array)
    if (!items) return []
    const groups = new Map<string, unknown[]>()
    for (const item of items) {
      const key = item?.[property]
      if (!key) continue
      const name = String(key)
      const list = groups.get(name)
      if (list) list.push(item)
      else groups.set(name, [item])
    }
    return [...groups].map(([key, list]) => ({ key, items: list }))
  })
  hb.registerHelper('unique', (array: unknown, property: string) => {
    const items = asArray(array)
    if (!items) return ''
    const values = items.map((item) => (item?.[property] ? item[property] : undefined))
    return values.filter((value, index) => values.indexOf(value) === index)
  })
  hb.registerHelper('sortBy', (array: unknown, property: unknown) => {
    const items = asArray(array)
    if (!items) return ''
    // Upstream sorts the payload's own array in place; a copy keeps the stored payload intact.
    const copy = [...items]
    if (!property || typeof property !== 'string') return copy.sort()
    return copy.sort((a, b) => {
      const x = a?.[property] as never
      const y = b?.[property] as never
      return x < y ? -1 : x > y ? 1 : 0
    })
  })
  hb.registerHelper('numberFormat', (value: unknown, options: Options) => {
    if (typeof value === 'number' && Number.isNaN(value)) return value
    const hash = options.hash as Record<string, unknown>
    const decimalLength = Number(hash.decimalLength || 2)
    const thousandsSep = String(hash.thousandsSep || ',')
    const decimalSep = String(hash.decimalSep || '.')
    const parsed = parseFloat(String(value))
    const re = new RegExp(`\\d(?=(\\d{3})+${decimalLength > 0 ? '\\D' : '$'})`, 'g')
    const fixed = parsed.toFixed(Math.max(0, ~~decimalLength))
    return (decimalSep ? fixed.replace('.', decimalSep) : fixed).replace(re, `$&${thousandsSep}`)
  })
  const compare = (test: (a: never, b: never) => boolean) =>
    function (a: unknown, b: unknown, options: Options) {
      return assertResult(test(a as never, b as never), options)
    }
  hb.registerHelper(
    'gt',
    compare((a, b) => a > b)
  )
  hb.registerHelper(
    'gte',
    compare((a, b) => a >= b)
  )
  hb.registerHelper(
    'lt',
    compare((a, b) => a < b)
  )
  hb.registerHelper(
    'lte',
    compare((a, b) => a <= b)
  )
  hb.registerHelper(
    'eq',
    compare((a, b) => a === b)
  )
  hb.registerHelper(
    'ne',
    compare((a, b) => a !== b)
  )
  return hb
}

/** Upstream's helpers call the string method on whatever came in: `value?.toUpperCase()`. */
function callString(value: unknown, method: string): unknown {
  if (value === undefined || value === null) return value
  const fn = (value as Record<string, unknown>)[method]
  if (typeof fn !== 'function') throw new RenderError(`value?.${method} is not a function`)
  return (fn as () => unknown).call(value)
}

let created: typeof Handlebars | undefined
const handlebars = () => (created ??= createInstance())

/** The helpers the renderer's environment knows (simple-render.ts leaves them to Handlebars). */
export const helperNames = (): string[] => Object.keys(handlebars().helpers)

/** The compiler's parts a Handlebars environment carries, which its types leave out. */
interface CompilerParts {
  Compiler: new () => { compile(ast: unknown, options: object): unknown }
  JavaScriptCompiler: new () => {
    compile(environment: unknown, options: object, context: undefined, asObject: true): unknown
  }
}

/** A template as the runtime builds it: `_setup` readies its helpers before each render. */
type Runnable = Handlebars.TemplateDelegate & { _setup(options: Record<string, unknown>): void }

/**
 * What `instance.compile(text)` builds on its first call, built at once, its setup made once:
 * the runtime's `_setup` wraps every helper of the environment in a new closure on each render,
 * which was most of a short text's render. The setup depends only on the call's options, and
 * renders here pass none, so the first one's stands for the next.
 */
function compileString(text: string): Handlebars.TemplateDelegate {
  const options = { data: true }
  const instance = handlebars()
  const parts = instance as unknown as CompilerParts
  const ast = instance.parse(text, options as Handlebars.ParseOptions)
  const environment = new parts.Compiler().compile(ast, options)
  const spec = new parts.JavaScriptCompiler().compile(environment, options, undefined, true)
  const template = instance.template(spec as TemplateSpecification) as Runnable
  const setup = template._setup
  let ready = false
  template._setup = (setupOptions) => {
    const plain =
      !setupOptions.partial &&
      !setupOptions.helpers &&
      !setupOptions.partials &&
      !setupOptions.decorators
    if (ready && plain) return
    setup(setupOptions)
    ready = plain
  }
  return template
}
type TemplateSpecification = Parameters<typeof Handlebars.template>[0]

/** A template made ready to render: Handlebars' compiled one, or the simple renderer's. */
type Render = (data: Record<string, unknown>) => string

/**
 * Templates ready to render, by text: workflows are triggered far more often than they are
 * written. Bounded in bytes as well as entries (a compiled template weighs a few times its
 * text), and counted in the memory budget through the cache registry.
 */
const compiled = new BoundedCache<string, Render>('handlebars templates', {
  maxEntries: 1000,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (_template, _text, keyBytes) => COMPILED_BYTES_PER_CHAR * keyBytes,
})
/** What a compiled template holds per character of its text: the text, its AST and its code. */
const COMPILED_BYTES_PER_CHAR = 3

const withoutOptions =
  (template: Handlebars.TemplateDelegate): Render =>
  (data) =>
    template(data, {})

/**
 * A simple text (simple-render.ts) renders without Handlebars; a render of it that needs
 * Handlebars after all (a value that is an object...) compiles it then.
 */
function prepare(text: string): Render {
  const simple = simpleTemplate(text)
  if (!simple) return withoutOptions(compileString(text))
  let full: Render | undefined
  return (data) => simple(data) ?? (full ??= withoutOptions(compileString(text)))(data)
}

function compile(text: unknown): Render {
  // Anything but a string goes the library's way, which refuses it as upstream's does.
  if (typeof text !== 'string') return withoutOptions(handlebars().compile(text as string))
  return compiled.memo(text, () => prepare(text))
}

/**
 * A text Handlebars gives back as it is: no mustache, and no NUL (which its lexer refuses). An
 * email's text block has an empty `url`, rendered with each message.
 */
const isPlainText = (source: unknown): source is string =>
  typeof source === 'string' && !source.includes('{{') && !source.includes('\0')

/** Renders one text with the data, as upstream's CompileTemplate does. */
export function renderTemplate(text: unknown, data: Record<string, unknown>): string {
  const source = typeof text === 'string' ? text : text === undefined || text === null ? '' : text
  iterations = 0
  let out: string
  try {
    out = isPlainText(source) ? source : compile(source)(data)
  } catch (error) {
    // A failed render's loops count against the request's allowance too.
    chargeRender(0, iterations)
    if (error instanceof RenderError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new RenderError(message || `Handlebars message content could not be generated ${error}`)
  }
  chargeRender(out.length, iterations)
  if (out.length > RENDER_LIMITS.outputChars)
    throw new RenderError(
      `the rendered text is longer than ${RENDER_LIMITS.outputChars} characters (novu-mock's limit)`
    )
  return out.replace(/&#x27;/g, "'")
}
