// Handlebars' parser, loaded by the first text the simple parse leaves to it: a seeded
// environment's workflows and most notification texts never need it (parseSimple, below).
import { loadHandlebars } from '../../delivery/languages/handlebars-build.js'
import { templateLimitErrors, TEMPLATE_LIMITS } from './handlebars-limits.js'

/**
 * Handlebars' parser is a jison parser over one shared lexer. The lexer's `next` is wrapped
 * for the length of one synchronous parse, so that the work is counted as it happens and a
 * text past a limit is abandoned at once, however long the rest of it is.
 */
type Lexer = { next(this: Lexer): unknown }
/** What the build exposes of its parser, which its types leave out. */
interface ParserParts {
  Parser: { lexer: Lexer; symbols_: Record<string, number> }
  parseWithoutProcessing(input: string): hbs.AST.Program
}

interface Parsing {
  parts: ParserParts
  /** Tokens that open a level the parser keeps on its stack until the matching close. */
  opensBlock: Set<number>
  chain: number
  endBlock: number
  openSexpr: number
  closeSexpr: number
}

let parsing: Parsing | undefined

function loadParsing(): Parsing {
  const parts = loadHandlebars() as unknown as ParserParts
  const id = (name: string) => parts.Parser.symbols_[name] ?? Number.NaN
  return {
    parts,
    opensBlock: new Set([id('OPEN_BLOCK'), id('OPEN_INVERSE'), id('OPEN_PARTIAL_BLOCK')]),
    chain: id('OPEN_INVERSE_CHAIN'),
    endBlock: id('OPEN_ENDBLOCK'),
    openSexpr: id('OPEN_SEXPR'),
    closeSexpr: id('CLOSE_SEXPR'),
  }
}

/**
 * Tokens lexed, every parse together: a cheap count that lets the tests hold a parse to the
 * limits by its work, where a clock would flake on a busy machine.
 */
let lexed = 0
export const tokensLexed = () => lexed

export interface ParsedText {
  body: unknown[]
  tokens: number
}

/** A name the lexer reads as one plain ID (no literal, keyword, segment or `this`), dot-joined. */
const SIMPLE_MUSTACHE = /\{\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}\}(?!\})/y
const NOT_PLAIN = /^(?:true|false|null|undefined|else|this|as)$/

/**
 * The parse of a text made of plain content and `{{name}}` or `{{a.b}}` mustaches alone, the
 * shape of nearly every notification text, without running Handlebars' parser: the same nodes as
 * far as the variables' walk reads them, and the same count of lexer steps (a content, then
 * OPEN, the IDs and their separators, CLOSE; one more step where a mustache starts the text or
 * follows another; EOF). Undefined for anything else (an escape, a block, a literal, `{{{`,
 * whitespace or `~` inside the braces), which the parser reads. A seeded environment's
 * workflows are all of this shape: the first environment no longer runs the parser cold.
 */
export function parseSimple(text: string): ParsedText | undefined {
  if (text.includes('\\') || text.includes('\0')) return undefined
  const body: unknown[] = []
  let tokens = 1
  let at = 0
  for (;;) {
    const open = text.indexOf('{{', at)
    const content = open < 0 ? text.length : open
    if (content > at) {
      body.push({ type: 'ContentStatement' })
      tokens++
    } else if (open >= 0) tokens++
    if (open < 0) return tokens > TEMPLATE_LIMITS.tokens ? undefined : { body, tokens }
    SIMPLE_MUSTACHE.lastIndex = open
    const name = SIMPLE_MUSTACHE.exec(text)?.[1]
    if (name === undefined) return undefined
    const parts = name.split('.')
    if (parts.some((part) => NOT_PLAIN.test(part))) return undefined
    body.push({ type: 'MustacheStatement', path: { original: name }, params: [] })
    tokens += 1 + 2 * parts.length
    // Past the limit the parser is what refuses it, as early in the text as it would.
    if (tokens > TEMPLATE_LIMITS.tokens) return undefined
    at = SIMPLE_MUSTACHE.lastIndex
  }
}

/** Parses a template text the way upstream does (parseWithoutProcessing), within the limits. */
export function parseCounted(text: string): ParsedText {
  const simple = parseSimple(text)
  if (!simple) return parseWithParser(text)
  lexed += simple.tokens
  return simple
}

/** What Handlebars' parser makes of the text, its lexer's steps counted and held to the limits. */
export function parseWithParser(text: string): ParsedText {
  const { parts, opensBlock, chain, endBlock, openSexpr, closeSexpr } = (parsing ??= loadParsing())
  const lexer = parts.Parser.lexer
  const next = lexer.next
  let tokens = 0
  let depth = 0
  // Each open block's count of `{{else …}}` links: every link nests one level deeper.
  const chains: number[] = []
  lexer.next = function counted(this: Lexer) {
    const found = next.call(this) as number
    if (++tokens > TEMPLATE_LIMITS.tokens) throw templateLimitErrors.tokens()
    if (opensBlock.has(found)) {
      depth++
      chains.push(0)
    } else if (found === chain) {
      depth++
      chains.push((chains.pop() ?? 0) + 1)
    } else if (found === endBlock) depth -= 1 + (chains.pop() ?? 0)
    else if (found === openSexpr) depth++
    else if (found === closeSexpr) depth--
    if (depth > TEMPLATE_LIMITS.depth) throw templateLimitErrors.depth()
    return found
  }
  try {
    return { body: parts.parseWithoutProcessing(text).body, tokens }
  } finally {
    lexer.next = next
    lexed += tokens
  }
}
