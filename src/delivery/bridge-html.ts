import { type Obj } from '../objects.js'
import { createRequire } from 'node:module'
import type sanitizeHtmlType from 'sanitize-html'
import { RenderError } from './languages/handlebars.js'
import { closeSlashedEndTags } from './languages/text-scans.js'
import { needsSanitizing } from '../workflow-model/sanitize.js'

/**
 * The sanitiser upstream runs over dashboard workflows' in-app fields and email HTML
 * (application-generic's `sanitizeHTML`): sanitize-html's default tags plus style, img and the
 * document tags; every attribute kept except event handlers (`on…`), images limited to their
 * safe attributes; `cid:` URLs allowed; a leading DOCTYPE kept. Text comes out HTML-escaped
 * (`&` → `&amp;`), as upstream's does.
 */

const requireLazily = createRequire(import.meta.url)
let sanitizeHtml: typeof sanitizeHtmlType | undefined

/** Elements open at once: htmlparser2's time grows with the square of the nesting. */
const SANITIZE_DEPTH = 256

const IMAGE_ATTRIBUTES = new Set([
  'src',
  'alt',
  'width',
  'height',
  'loading',
  'srcset',
  'sizes',
  'crossorigin',
  'usemap',
  'ismap',
  'class',
  'id',
  'style',
  'title',
  'dir',
  'lang',
])

function keepAttributes(tagName: string, attribs: Record<string, string>) {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(attribs)) {
    const lower = name.toLowerCase()
    if (tagName === 'img' ? IMAGE_ATTRIBUTES.has(lower) : !lower.startsWith('on'))
      kept[name] = value
  }
  return { tagName, attribs: kept }
}

/** One HTML text sanitised; past the nesting limit the render fails (no message). */
export function sanitizeHtmlText(html: string): string {
  if (!html || !needsSanitizing(html)) return html
  sanitizeHtml ??= requireLazily('sanitize-html') as typeof sanitizeHtmlType
  // Browsers close a tag on `</style/>`; htmlparser2 does not: normalise first.
  const normalized = closeSlashedEndTags(html)
  const doctype = /^<!DOCTYPE .*?>/.exec(normalized)?.[0] ?? ''
  let depth = 0
  const clean = sanitizeHtml(normalized, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat([
      'style',
      'img',
      'html',
      'head',
      'body',
      'link',
      'meta',
      'title',
    ]),
    allowedAttributes: false,
    transformTags: { '*': keepAttributes },
    allowedSchemes: sanitizeHtml.defaults.allowedSchemes.concat(['cid']),
    allowVulnerableTags: true,
    parseStyleAttributes: false,
    parser: { lowerCaseAttributeNames: true },
    onOpenTag: () => {
      if (++depth > SANITIZE_DEPTH)
        throw new RenderError(
          `the HTML nests elements deeper than ${SANITIZE_DEPTH} levels (novu-mock's limit)`
        )
    },
    onCloseTag: () => void depth--,
  })
  return doctype + clean
}

/** Every string of an object sanitised, in arrays and nested objects too. */
export function sanitizeObject(object: Obj): Obj {
  const out: Obj = {}
  for (const [key, value] of Object.entries(object)) out[key] = sanitizeValue(value)
  return out
}

function sanitizeValue(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeHtmlText(value)
  if (Array.isArray(value)) return value.map(sanitizeValue)
  if (value !== null && typeof value === 'object') return sanitizeObject(value as Obj)
  return value
}
