/**
 * The texts most workflows send, rendered without Handlebars: content and `{{path.to.value}}`
 * mustaches, each path followed through own properties to a string, number or boolean, written
 * as Handlebars writes it (HTML-escaped), or to nothing (written as nothing). A trigger whose
 * texts are all so neither loads nor runs Handlebars: about 1 MB of heap and 480 functions that
 * the process would keep. Anything else is Handlebars' to render: a text with helpers, blocks,
 * partials, comments, escapes, whitespace control, `this`, `@data` or literals, and a render
 * whose path reaches an object, a function or a property of a prototype, where Handlebars has
 * more to say. simple-render.test.ts holds the two together on random texts and data.
 */

/**
 * Names Handlebars resolves as helpers before it reads the data: its own and those the renderer
 * registers (handlebars.ts; a test checks the list against the environment).
 */
export const HELPER_NAMES: ReadonlySet<string> = new Set([
  'blockHelperMissing',
  'helperMissing',
  'each',
  'if',
  'unless',
  'with',
  'log',
  'lookup',
  'json',
  'equals',
  'titlecase',
  'uppercase',
  'lowercase',
  'pluralize',
  'dateFormat',
  'groupBy',
  'unique',
  'sortBy',
  'numberFormat',
  'gt',
  'gte',
  'lt',
  'lte',
  'eq',
  'ne',
])

/** Words Handlebars' lexer reads as something other than a name. */
const KEYWORDS = new Set(['this', 'true', 'false', 'null', 'undefined'])

/**
 * `{{ a.b-c.$d }}`: names of word characters, `$` and `-`, not starting with a digit or `-`; not
 * followed by a third `}` (the lexer would read `}}}` as the end of a `{{{`).
 */
const MUSTACHE = /\{\{\s*([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)\s*\}\}(?!\})/y

const isName = (segment: string) => !KEYWORDS.has(segment) && !(segment in Object.prototype)

/** The path of a simple mustache at `at`, or nothing when it is not one. */
function mustacheAt(text: string, at: number): { path: string[]; end: number } | undefined {
  if (text.charCodeAt(at - 1) === 92 /* \ escapes it */) return undefined
  MUSTACHE.lastIndex = at
  const found = MUSTACHE.exec(text)
  if (!found) return undefined
  const path = (found[1] as string).split('.')
  const first = path[0] as string
  // `{{else…` opens an inverse section wherever a word ends after it.
  if (HELPER_NAMES.has(first) || /^else\b/.test(first) || !path.every(isName)) return undefined
  return { path, end: MUSTACHE.lastIndex }
}

/** A property Handlebars (or Liquid) would look further into, or write otherwise than as text. */
const NOT_SIMPLE = Symbol('not simple')

/**
 * The value at `path` of `data`, when every step is an own property (or nothing): where a step
 * meets a prototype's property or a value that is not an object, NOT_SIMPLE, for the engines
 * have more to say there (Handlebars' lookups, liquidjs' `size` of a string).
 */
function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data
  for (const key of path) {
    if (value === undefined || value === null) return value
    if (typeof value !== 'object') return NOT_SIMPLE
    if (!Object.hasOwn(value, key)) return key in value ? NOT_SIMPLE : undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

const ESCAPED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
}
const escapeHtml = (text: string) => text.replace(/[&<>"'`=]/g, (c) => ESCAPED[c] as string)

/**
 * A value as the engines write it, strings through `text` (Handlebars' escapeExpression, Liquid's
 * output escape): nothing for nothing, numbers and booleans as text; undefined for a value an
 * engine treats apart.
 */
export const writtenWith =
  (text: (value: string) => string) =>
  (value: unknown): string | undefined => {
    if (value === undefined || value === null) return ''
    if (typeof value === 'string') return text(value)
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    return undefined
  }
const written = writtenWith(escapeHtml)

/** Renders with the data, or gives nothing when this render needs the engine. */
export type SimpleRender = (data: Record<string, unknown>) => string | undefined

/** A mustache's path and where it ends, or nothing when it is not a simple one. */
export type MustacheAt = (text: string, at: number) => { path: string[]; end: number } | undefined

/** A text cut at its mustaches: the texts around them and each one's path. */
interface Parts {
  texts: string[]
  paths: string[][]
}

/** The text's parts, or nothing when one of its `{{` does not open a simple mustache. */
export function partsOf(text: string, readMustache: MustacheAt): Parts | undefined {
  const texts: string[] = []
  const paths: string[][] = []
  let from = 0
  for (let at = text.indexOf('{{'); at !== -1; at = text.indexOf('{{', from)) {
    const mustache = readMustache(text, at)
    if (!mustache) return undefined
    texts.push(text.slice(from, at))
    paths.push(mustache.path)
    from = mustache.end
  }
  texts.push(text.slice(from))
  return { texts, paths }
}

/** The parts rendered with the data; nothing when `written` has no text for a value. */
export function renderParts(
  { texts, paths }: Parts,
  data: Record<string, unknown>,
  written: (value: unknown) => string | undefined
): string | undefined {
  let out = texts[0] as string
  for (let i = 0; i < paths.length; i++) {
    const value = written(valueAt(data, paths[i] as string[]))
    if (value === undefined) return undefined
    out += value + (texts[i + 1] as string)
  }
  return out
}

/** The text's renderer when the text is simple (see above), else nothing. */
export function simpleTemplate(text: string): SimpleRender | undefined {
  if (text.includes('\0')) return undefined
  const parts = partsOf(text, mustacheAt)
  return parts && ((data) => renderParts(parts, data, written))
}
