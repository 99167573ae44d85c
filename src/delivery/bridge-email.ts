import { type Obj } from '../objects.js'
import { createRequire } from 'node:module'
import type { decodeHTML as DecodeHtml } from 'entities'
import { sanitizeHtmlText } from './bridge-html.js'
import { renderLiquid } from './languages/liquid.js'
import { isMailyDocument, renderMailyEmail } from './languages/maily.js'
import { RenderError } from './languages/handlebars.js'
import { emptyBlankParagraphs, removeComments, removeDoctypes } from './languages/text-scans.js'

/**
 * Upstream's email output renderer for dashboard workflows, run on controls the framework has
 * already rendered once: the subject unescaped and its HTML entities decoded; a block-editor
 * (Maily) body turned into HTML (maily.ts); an HTML body rendered with Liquid a second time
 * (strings unescaped, not escaped); then empty paragraphs emptied, the preheader hidden at the
 * top of the body and, unless the step disables it, the HTML sanitised.
 */

const requireLazily = createRequire(import.meta.url)
let decodeHTML: typeof DecodeHtml | undefined

/** Undoes the framework's JSON escaping of a text: `\n`, `\"`, `\\` … as written sequences. */
function unescapeJsonText(text: string): string {
  return text
    .replace(/\\t/g, '\t')
    .replace(/\\r/g, '\r')
    .replace(/\\n/g, '\n')
    .replace(/\\"/g, '"')
    .replace(/\\'/g, "'")
    .replace(/\\\\/g, '\\')
}

/** The same on every string of the render's variables (a copy). */
function unescapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return unescapeJsonText(value)
  if (Array.isArray(value)) return value.map(unescapeStrings)
  if (value !== null && typeof value === 'object') {
    const out: Obj = {}
    for (const [key, member] of Object.entries(value)) out[key] = unescapeStrings(member)
    return out
  }
  return value
}

/** Every entity starts with `&`: a subject without one is its own decoding (entities not loaded). */
function decode(text: string): string {
  if (!text.includes('&')) return text
  decodeHTML ??= (requireLazily('entities') as { decodeHTML: typeof DecodeHtml }).decodeHTML
  return decodeHTML(text)
}

function parsesAsJson(text: string): unknown {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/** The preheader as inbox previews show it: hidden text first in the body, padded with spacers. */
function withPreheader(html: string, preheader: unknown): string {
  const text = typeof preheader === 'string' ? preheader.trim() : ''
  if (!text || !html) return html
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
  const block = `<div style="display: none; max-height: 0px; overflow: hidden;">${escaped}${'&nbsp;&zwnj;'.repeat(50)}</div>`
  const body = /<body\b[^<>]*?>/i
  if (!body.test(html)) return block + html
  return html.replace(body, (tag) => tag + block)
}

/**
 * The email step's outputs from its rendered controls; `variables` is the render's full payload
 * (workflow, payload, subscriber, context, steps, env).
 */
export function emailOutputs(controls: Obj, variables: Obj, now: string): Obj {
  const {
    body,
    subject,
    disableOutputSanitization,
    from,
    replyTo,
    preheader,
    useProviderDefaults,
  } = controls
  const meta: Obj = {
    ...(from ? { from } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(preheader ? { preheader } : {}),
    ...(useProviderDefaults !== undefined ? { useProviderDefaults } : {}),
  }
  // Left to the output check, as upstream leaves it.
  if (!body || typeof body !== 'string') return { subject, body, ...meta }
  if (typeof subject !== 'string') throw new RenderError('subject.replace is not a function')
  const plain = unescapeStrings(variables) as Obj
  const renderedSubject = decode(unescapeJsonText(subject))
  const json = parsesAsJson(body) as { value: unknown } | undefined
  let html: string
  if (json) {
    if (!isMailyDocument(json.value))
      throw new RenderError('the email body is not a Maily document')
    html = renderMailyEmail(json.value, plain, now)
  } else html = renderLiquid(unescapeJsonText(body), plain, 'raw', now)
  html = removeDoctypes(html).replaceAll('<!--$-->', '').replaceAll('<!--/$-->', '')
  // Paragraphs of whitespace only are emptied (Gmail clips mail that ends in whitespace).
  html = emptyBlankParagraphs(removeComments(html))
  html = withPreheader(html, preheader)
  return {
    subject: renderedSubject,
    body: disableOutputSanitization ? html : sanitizeHtmlText(html),
    ...meta,
  }
}
