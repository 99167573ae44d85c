import type { Message } from '../resources/messages/messages.store.js'
import { isObj, type Obj } from '../objects.js'

/** What a channel's provider would have been handed, as text a test can assert on. */
export type RenderedOutput =
  | { channel: 'email'; subject: string; html: string; text: string; links: string[] }
  | { channel: 'sms' | 'chat'; text: string }
  | { channel: 'push'; title: string; body: string }
  | { channel: 'in_app'; content: string; subject?: string; cta: unknown }
  | { channel: string; content: unknown }

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch)

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/**
 * A v1 editor email's blocks as one HTML document: upstream hands its provider the blocks laid
 * out by its own email layout; the mock lays them out plainly (a text block as a paragraph, a
 * button as a link), which keeps every text and link the layout would carry.
 */
function blocksHtml(blocks: unknown[]): string {
  const body = blocks
    .map((raw) => {
      const block = isObj(raw) ? raw : {}
      const align = isObj(block.styles) ? text(block.styles.textAlign) : ''
      const style = /^(left|right|center|justify)$/.test(align)
        ? ` style="text-align:${align}"`
        : ''
      if (block.type === 'button')
        return `<p${style}><a href="${escapeHtml(text(block.url))}">${text(block.content)}</a></p>`
      return `<div${style}>${text(block.content)}</div>`
    })
    .join('\n')
  return `<!DOCTYPE html>\n<html><body>\n${body}\n</body></html>`
}

/** The HTML's text as a mail client's plain-text part would read it: links kept as `text (url)`. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\s[^>]*href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a\s*>/gi, (_, url, label) =>
      label.replace(/<[^>]*>/g, '').trim() === url ? url : `${label} (${url})`
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase()
      if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16) || 32)
      if (lower.startsWith('#') && lower !== '#39')
        return String.fromCodePoint(Number(lower.slice(1)) || 32)
      return ENTITIES[lower] ?? whole
    })
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** Every href in the HTML, in order, each once. */
function linksOf(html: string): string[] {
  const found = new Set<string>()
  for (const match of html.matchAll(/<a\s[^>]*href\s*=\s*["']([^"']*)["']/gi))
    found.add((match[1] as string).replace(/&amp;/g, '&'))
  return [...found]
}

/** The message's rendered output, by channel. */
export function renderedOutput(message: Message): RenderedOutput {
  const m = message as Message & Obj
  switch (m.channel) {
    case 'email': {
      const content = m.content
      const html = Array.isArray(content) ? blocksHtml(content) : text(content)
      return {
        channel: 'email',
        subject: text(m.subject),
        html,
        text: htmlToText(html),
        links: linksOf(html),
      }
    }
    case 'sms':
    case 'chat':
      return { channel: m.channel, text: text(m.content) }
    case 'push':
      return { channel: 'push', title: text(m.title), body: text(m.content) }
    case 'in_app':
      return {
        channel: 'in_app',
        content: text(m.content),
        ...(typeof m.subject === 'string' ? { subject: m.subject } : {}),
        cta: m.cta,
      }
    default:
      return { channel: m.channel, content: m.content }
  }
}
