import fc from 'fast-check'
import { expect, test } from 'vitest'
import { TEMPLATE_LIMITS } from './handlebars-limits.js'
import { parseCounted, parseSimple, parseWithParser, type ParsedText } from './handlebars-parse.js'

/** What the variables' walk reads of a body: each node's type, path and parameter count. */
const shape = ({ body, tokens }: ParsedText) => ({
  tokens,
  body: (body as { type: string; path?: { original?: unknown }; params?: unknown[] }[]).map(
    (node) => [node.type, node.path?.original, node.params?.length ?? 0]
  ),
})

const FRAGMENTS = [
  '{{',
  '}}',
  '{',
  '}',
  '{{{',
  '}}}',
  'a',
  'b.c',
  '_x1',
  '.',
  ' ',
  '\n',
  '\\',
  '~',
  '#',
  '/',
  '!',
  '>',
  '^',
  '&',
  '=',
  '"',
  'this',
  'true',
  'null',
  'else',
  'as',
  '1',
  'é',
  '{{a}}',
  '{{b.c}}',
  '{{ a }}',
  'Hi ',
  '{{#if a}}',
  '{{/if}}',
]

test('reads a text of content and plain mustaches as the parser does, lexer steps included', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }), (parts) => {
      const text = parts.join('')
      const simple = parseSimple(text)
      if (simple) expect(shape(simple)).toEqual(shape(parseWithParser(text)))
    }),
    { numRuns: 3000 }
  )
})

test.each([
  'Hi {{firstName}}, your order is ready: {{orderId}}',
  '/orders/{{orderId}}',
  '{{a}}{{b.c}}',
  'no variables here',
  '',
  'x}}y{{a}}',
])('reads %j without the parser, as the parser does', (text) => {
  const simple = parseSimple(text)
  expect(simple).toBeDefined()
  expect(shape(simple as ParsedText)).toEqual(shape(parseWithParser(text)))
})

test.each([
  '{{ a }}',
  '{{{a}}}',
  '{{a}}}',
  '\\{{a}}',
  '{{this}}',
  '{{true}}',
  '{{#if a}}b{{/if}}',
  '{{a b}}',
  '{{~a}}',
])('leaves %j to the parser', (text) => {
  expect(parseSimple(text)).toBeUndefined()
})

test('leaves a plain text past the token limit to the parser, which refuses it as before', () => {
  const text = '{{a}}'.repeat(Math.ceil(TEMPLATE_LIMITS.tokens / 4) + 1)
  expect(parseSimple(text)).toBeUndefined()
  expect(() => parseCounted(text)).toThrow(/Failed to extract variables/)
})
