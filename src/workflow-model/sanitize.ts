import { createRequire } from 'node:module'
import type sanitizeHtmlType from 'sanitize-html'
import { badRequest } from '../errors.js'
import { isObj } from '../objects.js'

// Loaded on first use: only workflows whose step content type is "editor" need it.
const requireLazily = createRequire(import.meta.url)
let sanitizeHtml: typeof sanitizeHtmlType | undefined

/**
 * How much editor HTML one request may make the mock sanitise. htmlparser2 shifts its whole
 * stack of open elements at each new one, so the time grows with the square of the nesting
 * (400,000 nested divs: minutes on the event loop, as upstream would spend them); the rest is
 * linear, at most about a third of a second a megabyte.
 */
export const EDITOR_LIMITS = {
  /** Characters of editor HTML, every step's and variant's together. */
  chars: 1024 * 1024,
  /** Elements open at once, as the parser counts them (void and implied-closed ones are not). */
  depth: 256,
} as const

/** Elements the sanitiser opened, every text together: its work, as tests bound it (not a clock). */
let opened = 0
export const elementsOpened = () => opened

const n = (value: number) => value.toLocaleString('en-US')
const editorLimitErrors = {
  chars: () =>
    badRequest(
      `Editor content is longer than ${n(EDITOR_LIMITS.chars)} characters (novu-mock's limit)`
    ),
  depth: () =>
    badRequest(
      `Editor content nests HTML elements deeper than ${EDITOR_LIMITS.depth} levels (novu-mock's limit)`
    ),
}

/**
 * No tag, no entity, nothing to escape: sanitize-html gives such a text back as it is, whatever
 * its options (property tests hold both of the mock's configurations to that), so a text of
 * words and `{{names}}` need not load it: 1.7 MB of heap and about 90 ms on first use.
 */
export const needsSanitizing = (text: string) => /[<>&]/.test(text)

/**
 * Upstream's sanitize-html options for "editor" content: the defaults plus style and img tags.
 * The tag callbacks follow the parser's own stack and stop it at the first element too deep.
 */
function sanitize(html: unknown): unknown {
  if (!html || typeof html !== 'string') return html
  if (html.length > EDITOR_LIMITS.chars) throw editorLimitErrors.chars()
  if (!needsSanitizing(html)) return html
  sanitizeHtml ??= requireLazily('sanitize-html') as typeof sanitizeHtmlType
  let depth = 0
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['style', 'img']),
    allowedAttributes: {
      ...sanitizeHtml.defaults.allowedAttributes,
      '*': ['style'],
      img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
    },
    allowVulnerableTags: true,
    parseStyleAttributes: false,
    onOpenTag: () => {
      opened++
      if (++depth > EDITOR_LIMITS.depth) throw editorLimitErrors.depth()
    },
    onCloseTag: () => void depth--,
  })
}

/** A string is sanitised whole; email blocks one by one. */
export function sanitizeContent(content: unknown): unknown {
  if (typeof content === 'string') return sanitize(content)
  if (Array.isArray(content))
    return content.map((block) =>
      block && typeof block === 'object'
        ? { ...block, content: sanitize((block as { content?: unknown }).content) }
        : block
    )
  return content
}

const textLength = (v: unknown) => (typeof v === 'string' ? v.length : 0)

function editorChars(template: unknown): number {
  if (!isObj(template) || template.contentType !== 'editor') return 0
  const { content } = template
  if (!Array.isArray(content)) return textLength(content)
  let chars = 0
  for (const block of content) if (isObj(block)) chars += textLength(block.content)
  return chars
}

/**
 * The request's share of the editor limit: every text sanitizeContent will see for these steps
 * and their variants, counted before any is sanitised. For the workflow builder to call once.
 */
export function checkEditorContent(steps: readonly unknown[]): void {
  let chars = 0
  for (const step of steps) {
    if (!isObj(step)) continue
    chars += editorChars(step.template)
    if (Array.isArray(step.variants))
      for (const variant of step.variants)
        if (isObj(variant)) chars += editorChars(variant.template)
    if (chars > EDITOR_LIMITS.chars) throw editorLimitErrors.chars()
  }
}
