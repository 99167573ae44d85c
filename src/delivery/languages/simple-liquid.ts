import type { EscapeMode } from './liquid.js'
import { partsOf, renderParts, type SimpleRender, writtenWith } from './simple-render.js'

/**
 * The texts most dashboard (v2) workflows send, rendered without liquidjs: content and
 * `{{ path.to.value }}` outputs, each path followed through own properties to a string, number
 * or boolean, written as the engine's output escape writes it, or to nothing (written as
 * nothing). A v2 trigger whose controls are all so neither loads nor runs liquidjs: 1.1 MB of
 * heap, and tens of milliseconds to load it at the first trigger. Anything else is liquidjs' to render: a text with a tag
 * (`{%`), a filter, whitespace control, brackets, a literal or a name liquidjs computes (`size`,
 * `first`, `last`), and a render whose path reaches an object, an array, a function or a
 * property of a prototype. simple-liquid.test.ts holds the two together on random texts and data.
 */

/** liquidjs' blanks are ASCII's six; its names are wider than these, which stay its to read. */
const OUTPUT = /\{\{[ \t\n\v\f\r]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t\n\v\f\r]*\}\}/y

/** Words liquidjs reads as literals, operators, or properties it computes when they are absent. */
const NOT_NAMES = new Set([
  'true',
  'false',
  'nil',
  'null',
  'empty',
  'blank',
  'and',
  'or',
  'not',
  'contains',
  'size',
  'first',
  'last',
])

function outputAt(text: string, at: number): { path: string[]; end: number } | undefined {
  OUTPUT.lastIndex = at
  const found = OUTPUT.exec(text)
  if (!found) return undefined
  const path = (found[1] as string).split('.')
  if (path.some((segment) => NOT_NAMES.has(segment))) return undefined
  return { path, end: OUTPUT.lastIndex }
}

const JSON_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

/** A string made safe inside a JSON string literal, as the framework's output escape makes it. */
export const escapeJsonText = (text: string) =>
  text.replace(/[\\"\n\r\t]/g, (c) => JSON_ESCAPES[c] as string)

const writtenJson = writtenWith(escapeJsonText)
const writtenRaw = writtenWith((text) => text)

/** The text's renderer in this escape mode when the text is simple (see above), else nothing. */
export function simpleLiquid(text: string, mode: EscapeMode): SimpleRender | undefined {
  if (text.includes('{%')) return undefined
  const parts = partsOf(text, outputAt)
  if (!parts) return undefined
  const write = mode === 'json' ? writtenJson : writtenRaw
  return (data) => renderParts(parts, data, write)
}
