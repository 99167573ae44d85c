// The parser alone, without Handlebars' compiler and runtime: the first environment parses its
// workflows' texts for their variables and renders nothing (the renderer loads the rest).
import compilerBase from 'handlebars/dist/cjs/handlebars/compiler/base.js'
import { templateLimitErrors, TEMPLATE_LIMITS } from './handlebars-limits.js'

/**
 * Handlebars' parser is a jison parser over one shared lexer. The lexer's `next` is wrapped
 * for the length of one synchronous parse, so that the work is counted as it happens and a
 * text past a limit is abandoned at once, however long the rest of it is.
 */
type Lexer = { next(this: Lexer): unknown }
const parser = compilerBase.parser
const id = (name: string) => parser.symbols_[name] ?? Number.NaN
const [OPEN_BLOCK, OPEN_INVERSE, OPEN_PARTIAL_BLOCK] = [
  'OPEN_BLOCK',
  'OPEN_INVERSE',
  'OPEN_PARTIAL_BLOCK',
].map(id)
const [CHAIN, END_BLOCK, OPEN_SEXPR, CLOSE_SEXPR] = [
  'OPEN_INVERSE_CHAIN',
  'OPEN_ENDBLOCK',
  'OPEN_SEXPR',
  'CLOSE_SEXPR',
].map(id)

// Tokens that open a level the parser keeps on its stack until the matching close.
const OPENS_BLOCK = new Set([OPEN_BLOCK, OPEN_INVERSE, OPEN_PARTIAL_BLOCK])

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

/** Parses a template text the way upstream does (parseWithoutProcessing), within the limits. */
export function parseCounted(text: string): ParsedText {
  const lexer = parser.lexer
  const next = lexer.next
  let tokens = 0
  let depth = 0
  // Each open block's count of `{{else …}}` links: every link nests one level deeper.
  const chains: number[] = []
  lexer.next = function counted(this: Lexer) {
    const found = next.call(this)
    if (++tokens > TEMPLATE_LIMITS.tokens) throw templateLimitErrors.tokens()
    if (OPENS_BLOCK.has(found as number)) {
      depth++
      chains.push(0)
    } else if (found === CHAIN) {
      depth++
      chains.push((chains.pop() ?? 0) + 1)
    } else if (found === END_BLOCK) depth -= 1 + (chains.pop() ?? 0)
    else if (found === OPEN_SEXPR) depth++
    else if (found === CLOSE_SEXPR) depth--
    if (depth > TEMPLATE_LIMITS.depth) throw templateLimitErrors.depth()
    return found
  }
  try {
    return { body: compilerBase.parseWithoutProcessing(text).body, tokens }
  } finally {
    lexer.next = next
    lexed += tokens
  }
}
