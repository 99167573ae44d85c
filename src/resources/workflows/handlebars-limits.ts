import { badRequest } from '../../errors.js'

/**
 * How much Handlebars one create request may make the mock parse and extract. Upstream has no
 * such limits: it parses for seconds, or runs out of memory, on templates no client writes by
 * hand. Every limit is far above real templates and keeps one request well under a second.
 */
export const TEMPLATE_LIMITS = {
  /** Characters of template text parsed, every step text together (newlines cost the most). */
  textChars: 2 * 1024 * 1024,
  /** Lexer steps of Handlebars' parser, every text together; an AST given as an object counts its nodes. */
  tokens: 100_000,
  /** Blocks, `else` chains and subexpressions open at once in one text: the parser slows with their square. */
  depth: 100,
  /** Variables found, repeats included, every text together. */
  variables: 20_000,
  /** Characters of those variables' names: a name in a block carries every enclosing block's name. */
  nameChars: 1_000_000,
} as const

const n = (value: number) => value.toLocaleString('en-US')
const failed = (why: string) =>
  badRequest(`Failed to extract variables: ${why} (novu-mock's limit)`)

/** Each message starts as upstream's extraction failure does, then names the limit. */
export const templateLimitErrors = {
  textChars: () =>
    failed(`the templates are longer than ${n(TEMPLATE_LIMITS.textChars)} characters`),
  tokens: () =>
    failed(
      `the templates hold more than ${n(TEMPLATE_LIMITS.tokens)} Handlebars tokens or AST nodes`
    ),
  depth: () =>
    failed(
      `a template nests blocks and subexpressions deeper than ${TEMPLATE_LIMITS.depth} levels`
    ),
  variables: () => failed(`the templates use more than ${n(TEMPLATE_LIMITS.variables)} variables`),
  nameChars: () =>
    failed(`the variable names are longer than ${n(TEMPLATE_LIMITS.nameChars)} characters in all`),
}

/** What extracting one text costs, measured while it is parsed and walked. */
export interface TextCost {
  tokens: number
  variables: number
  nameChars: number
}

/**
 * One request's running totals. A text is charged whole after it is extracted, or from the
 * cache: a request gets the same answer whether or not its texts were cached.
 */
export class TemplateBudget {
  private textChars = 0
  private readonly spent: TextCost = { tokens: 0, variables: 0, nameChars: 0 }

  chargeText(length: number) {
    this.textChars += length
    if (this.textChars > TEMPLATE_LIMITS.textChars) throw templateLimitErrors.textChars()
  }

  charge(cost: TextCost) {
    for (const key of ['tokens', 'variables', 'nameChars'] as const) {
      this.spent[key] += cost[key]
      if (this.spent[key] > TEMPLATE_LIMITS[key]) throw templateLimitErrors[key]()
    }
  }
}
