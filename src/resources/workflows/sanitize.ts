import { createRequire } from 'node:module'
import type sanitizeHtmlType from 'sanitize-html'

// Loaded on first use: only workflows whose step content type is "editor" need it.
const requireLazily = createRequire(import.meta.url)
let sanitizeHtml: typeof sanitizeHtmlType | undefined

/** Upstream's sanitize-html options for "editor" content: the defaults plus style and img tags. */
function sanitize(html: unknown): unknown {
  if (!html || typeof html !== 'string') return html
  sanitizeHtml ??= requireLazily('sanitize-html') as typeof sanitizeHtmlType
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['style', 'img']),
    allowedAttributes: {
      ...sanitizeHtml.defaults.allowedAttributes,
      '*': ['style'],
      img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
    },
    allowVulnerableTags: true,
    parseStyleAttributes: false,
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
