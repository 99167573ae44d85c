import { type Obj, isObj } from '../../objects.js'
import { evalLiquid, renderLiquid } from './liquid.js'
import { RenderError } from './handlebars.js'
import { firstOutputExpression } from './text-scans.js'

/**
 * The block editor's email body: a Maily (TipTap) document. Upstream's email renderer wraps its
 * variables in Liquid, resolves `showIfKey` conditions and `each` loops, renders the document's
 * JSON text with the variables, then turns the document into HTML with `@novu/maily-render`
 * (React Email). The mock does every step but the last the same way; its HTML is plain markup
 * (paragraphs, headings, lists, links, buttons, images) without maily-render's table layout
 * and styles (see the README).
 */

interface Node {
  type?: unknown
  attrs?: Obj
  content?: Node[]
  marks?: Node[]
  text?: unknown
  [key: string]: unknown
}

/** Nodes a document may hold after its loops are unrolled. */
const MAILY_LIMITS = { nodes: 100_000 } as const

export function isMailyDocument(value: unknown): value is Node {
  return isObj(value) && value.type === 'doc' && Array.isArray(value.content)
}

const LIQUID_EXPRESSION = /^\{\{[\s\S]*\}\}$/
const isLiquidExpression = (value: string) => LIQUID_EXPRESSION.test(value.trim())

/** `payload.name` → `{{ payload.name }}` (with its fallback as a `default`); `{{…}}` stays. */
function wrap(name: string, fallback?: unknown, aliasFor?: unknown): string {
  const trimmed = name.trim()
  if (isLiquidExpression(trimmed)) return trimmed
  const actual = typeof aliasFor === 'string' && aliasFor ? aliasFor : name
  const suffix = fallback ? ` | default: '${String(fallback)}'` : ''
  return `{{ ${actual}${suffix} }}`
}

/** Which attributes hold variables per node type, and the flag saying they do. */
function variableAttributes(type: unknown): [attr: string, flag: string | undefined][] {
  const common: [string, string | undefined][] = [
    ['id', undefined],
    ['showIfKey', undefined],
    ['each', undefined],
  ]
  if (type === 'button') return [['text', 'isTextVariable'], ['url', 'isUrlVariable'], ...common]
  if (type === 'image' || type === 'inlineImage')
    return [['src', 'isSrcVariable'], ['externalLink', 'isExternalLinkVariable'], ...common]
  if (type === 'link') return [['href', 'isUrlVariable'], ...common]
  return common
}

/** Wraps the document's variables in Liquid: `id`, `showIfKey`, `each`, and flagged attributes. */
function wrapInLiquid(node: Node, counter: { nodes: number }): Node {
  if (++counter.nodes > MAILY_LIMITS.nodes) throw tooManyNodes()
  const out: Node = { ...node }
  if (Array.isArray(node.content)) out.content = node.content.map((c) => wrapInLiquid(c, counter))
  if (isObj(node.attrs)) {
    const attrs: Obj = { ...node.attrs }
    for (const [attr, flag] of variableAttributes(node.type)) {
      const value = attrs[attr]
      if (!value || typeof value !== 'string') continue
      // `id`, `showIfKey` and `each` are always variables; the others when flagged.
      if (flag !== undefined && !attrs[flag]) continue
      attrs[attr] = wrap(value, attrs.fallback, attrs.aliasFor)
    }
    out.attrs = attrs
  }
  if (Array.isArray(node.marks))
    out.marks = node.marks.map((mark) => {
      if (!isObj(mark.attrs)) return mark
      const attrs: Obj = { ...mark.attrs }
      for (const [attr, flag] of variableAttributes(mark.type)) {
        const value = attrs[attr]
        if (!flag || !attrs[flag] || !value || typeof value !== 'string') continue
        attrs[attr] = wrap(value, attrs.fallback, attrs.aliasFor)
      }
      return { ...mark, attrs }
    })
  return out
}

const tooManyNodes = () =>
  new RenderError(
    `the email document has more than ${MAILY_LIMITS.nodes} nodes once its loops run (novu-mock's limit)`
  )

/** 'false', 'null', 'undefined' and JSON falsy values are false; any other text is true. */
function toBoolean(value: string): boolean {
  const normalized = value.toLowerCase().trim()
  if (normalized === 'false' || normalized === 'null' || normalized === 'undefined') return false
  try {
    return Boolean(JSON.parse(normalized))
  } catch {
    return Boolean(normalized)
  }
}

/** `{{ payload.items.name }}` in loop 0 of `{{ payload.items }}` → `{{ payload.items[0].name }}`. */
function withIndex(text: string, iterablePath: string, index: number): string {
  const clean = iterablePath.replace(/\{\{|\}\}/g, '').trim()
  const expression = firstOutputExpression(text)
  if (expression === undefined) return text
  const [path = '', ...filters] = expression.split('|').map((part) => part.trim())
  if (path.includes('[')) return text
  const indexed = path.replace(clean, `${clean}[${index}]`)
  return filters.length ? `{{ ${indexed} | ${filters.join(' | ')} }}` : `{{ ${indexed} }}`
}

const INDEXED_ATTRIBUTES: Record<string, string[]> = {
  button: ['text', 'url'],
  image: ['src', 'externalLink'],
  inlineImage: ['src', 'externalLink'],
  link: ['href'],
}

/** One loop iteration's copies of the loop's children, their variables pointing at the item. */
function forIteration(
  nodes: Node[],
  iterablePath: string,
  index: number,
  counter: { nodes: number }
): Node[] {
  return nodes.map((node) => {
    if (++counter.nodes > MAILY_LIMITS.nodes) throw tooManyNodes()
    const copy: Node = structuredClone(node)
    if (copy.type === 'variable' && typeof copy.attrs?.id === 'string') {
      copy.type = 'text'
      copy.text = withIndex(copy.attrs.id, iterablePath, index)
      return copy
    }
    const indexed = INDEXED_ATTRIBUTES[String(copy.type)]
    if (indexed && isObj(copy.attrs)) {
      for (const attr of indexed)
        if (typeof copy.attrs[attr] === 'string' && copy.attrs[attr])
          copy.attrs[attr] = withIndex(copy.attrs[attr], iterablePath, index)
      return copy
    }
    if (Array.isArray(copy.content) && copy.content.length)
      copy.content = forIteration(copy.content, iterablePath, index, counter)
    if (Array.isArray(copy.marks) && copy.marks.length)
      copy.marks = forIteration(copy.marks, iterablePath, index, counter)
    return copy
  })
}

interface TransformContext {
  variables: Obj
  now: string
  counter: { nodes: number }
}

/**
 * Resolves the document's conditions and loops breadth first, as upstream does: a node whose
 * `showIfKey` renders falsy leaves its parent; an `each` node is replaced by its children once
 * per item; `variable` nodes become text nodes holding their Liquid expression.
 */
function transform(root: Node, ctx: TransformContext): Node {
  const queue: { node: Node; parent?: Node }[] = [{ node: root }]
  for (let i = 0; i < queue.length; i++) {
    const { node, parent } = queue[i] as { node: Node; parent?: Node }
    const attrs = node.attrs
    if (attrs && attrs.showIfKey !== undefined && attrs.showIfKey !== null) {
      const shown = toBoolean(renderLiquid(String(attrs.showIfKey), ctx.variables, 'raw', ctx.now))
      if (!shown && parent?.content) parent.content = parent.content.filter((n) => n !== node)
      delete attrs.showIfKey
      if (!shown) continue
    }
    if ((node.type === 'repeat' || node.type === 'for') && typeof attrs?.each === 'string') {
      const path = attrs.each
      const value = evalLiquid(path.replace(/\{\{|\}\}/g, '').trim(), ctx.variables, ctx.now)
      if (!Array.isArray(value)) throw new RenderError(`Iterable "${path}" is not an array`)
      const iterations = Number(attrs.iterations)
      const items = iterations ? value.slice(0, iterations) : value
      const children = node.content ?? []
      const copies: Node[] = []
      for (let index = 0; index < items.length; index++)
        copies.push(...forIteration(children, path, index, ctx.counter))
      if (parent?.content) {
        const at = parent.content.indexOf(node)
        parent.content = [
          ...parent.content.slice(0, at),
          ...copies,
          ...parent.content.slice(at + 1),
        ]
      } else node.content = copies
    }
    if (node.type === 'variable' && typeof attrs?.id === 'string') {
      node.type = 'text'
      node.text = attrs.id
    }
    if (Array.isArray(node.content))
      for (const child of node.content) queue.push({ node: child, parent: node })
  }
  return root
}

/** Every string of the document escaped for a JSON string literal, as upstream's variables are. */
function jsonEscaped(value: unknown): unknown {
  if (typeof value === 'string')
    return value
      .replace(/\\/g, '\\\\')
      .replace(/"/g, '\\"')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t')
  if (Array.isArray(value)) return value.map(jsonEscaped)
  if (isObj(value)) {
    const out: Obj = {}
    for (const [key, member] of Object.entries(value)) out[key] = jsonEscaped(member)
    return out
  }
  return value
}

/* --------------------------------------------------------------------------------------------
 * HTML
 */

const attr = (value: unknown) => String(value ?? '').replace(/"/g, '&quot;')

function markup(text: string, marks: Node[] | undefined): string {
  let out = text
  for (const mark of marks ?? []) {
    const attrs = isObj(mark.attrs) ? mark.attrs : {}
    switch (mark.type) {
      case 'bold':
        out = `<strong>${out}</strong>`
        break
      case 'italic':
        out = `<em>${out}</em>`
        break
      case 'underline':
        out = `<u>${out}</u>`
        break
      case 'strike':
        out = `<s>${out}</s>`
        break
      case 'code':
        out = `<code>${out}</code>`
        break
      case 'link':
        out = `<a href="${attr(attrs.href)}" target="${attr(attrs.target ?? '_blank')}">${out}</a>`
        break
      case 'textStyle':
        if (attrs.color) out = `<span style="color:${attr(attrs.color)}">${out}</span>`
        break
    }
  }
  return out
}

function align(attrs: Obj): string {
  const value = attrs.textAlign ?? attrs.alignment
  return typeof value === 'string' && value && value !== 'left'
    ? ` style="text-align:${attr(value)}"`
    : ''
}

function html(node: Node): string {
  const attrs = isObj(node.attrs) ? node.attrs : {}
  const inner = () => (node.content ?? []).map(html).join('')
  switch (node.type) {
    case 'doc':
      return inner()
    case 'text':
      return markup(String(node.text ?? ''), node.marks)
    case 'paragraph':
      return `<p${align(attrs)}>${inner()}</p>`
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(attrs.level) || 1))
      return `<h${level}${align(attrs)}>${inner()}</h${level}>`
    }
    case 'hardBreak':
      return '<br>'
    case 'horizontalRule':
      return '<hr>'
    case 'bulletList':
      return `<ul>${inner()}</ul>`
    case 'orderedList':
      return `<ol>${inner()}</ol>`
    case 'listItem':
      return `<li>${inner()}</li>`
    case 'blockquote':
      return `<blockquote>${inner()}</blockquote>`
    case 'codeBlock':
      return `<pre><code>${inner()}</code></pre>`
    case 'image':
    case 'inlineImage': {
      const image = `<img src="${attr(attrs.src)}" alt="${attr(attrs.alt)}"${attrs.width ? ` width="${attr(attrs.width)}"` : ''}>`
      return attrs.externalLink
        ? `<a href="${attr(attrs.externalLink)}" target="_blank">${image}</a>`
        : image
    }
    case 'button':
      return `<a href="${attr(attrs.url)}" target="_blank">${String(attrs.text ?? '')}</a>`
    case 'spacer':
      return `<div style="height:${attr(attrs.height ?? 8)}px"></div>`
    case 'footer':
      return `<p style="font-size:small">${inner()}</p>`
    case 'htmlCodeBlock':
    case 'html':
      return typeof attrs.html === 'string' ? attrs.html : inner()
    default:
      return node.content ? `<div>${inner()}</div>` : ''
  }
}

/**
 * The email HTML of a Maily document, its variables rendered with `variables` (the render's
 * full payload). Throws a RenderError where upstream's renderer fails.
 */
export function renderMailyEmail(document: Node, variables: Obj, now: string): string {
  const counter = { nodes: 0 }
  const wrapped = wrapInLiquid(document, counter)
  counter.nodes = 0
  const escaped = jsonEscaped(variables) as Obj
  const transformed = transform(wrapped, { variables: escaped, now, counter })
  const text = renderLiquid(JSON.stringify(transformed), escaped, 'raw', now)
  let rendered: unknown
  try {
    rendered = JSON.parse(text)
  } catch (error) {
    throw new RenderError(
      `Liquid-rendered Maily content is not valid JSON: ${error instanceof Error ? error.message : String(error)}`
    )
  }
  if (!isObj(rendered)) throw new RenderError('Liquid-rendered Maily content is not a document')
  return `<html><head></head><body>${html(rendered as Node)}</body></html>`
}
