import fc from 'fast-check'
import { expect, test } from 'vitest'
import { NOT_TEXT_AT_A_B, templateData } from '../../../test/template-data.js'
import { type EscapeMode, renderLiquid } from './liquid.js'
import { simpleLiquid } from './simple-liquid.js'

// The reference: liquidjs as the mock configures it. A comment tag before a text sends it through
// the engine (a simple text has no tag) and writes nothing.
const NOW = '2026-11-27T00:00:00.000Z'
const byLiquid = (text: string, data: object, mode: EscapeMode) =>
  renderLiquid(`{% comment %}the engine{% endcomment %}${text}`, data as never, mode, NOW)
const rendered = (text: string, data: object, mode: EscapeMode) =>
  renderLiquid(text, data as never, mode, NOW)

const names = ['payload', 'subscriber', 'firstName', 'name', 'items', 'length', 'a', '_', 'x1']
const odd = [
  'true',
  'nil',
  'empty',
  'blank',
  'nilly',
  'nullable',
  'trueish',
  'size',
  'first',
  'last',
  'and',
  'contains',
  'constructor',
  'toString',
  '__proto__',
  'x-y',
  'a?',
  '0',
  'é',
]
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '\n', '\r', '\t', '}', '{', '}}', '{{{', '%}', '{%', '-', '\0', "'")
)
const blank = fc.constantFrom('', ' ', '  ', '\n', '\t', '\v', '\f', '\r', '\u00a0', '\u2028')
const output = fc
  .tuple(
    fc.array(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...names) }, fc.constantFrom(...odd)),
      { minLength: 1, maxLength: 3 }
    ),
    blank,
    blank,
    fc.constantFrom('.', '.', '.', ' . ', '-.')
  )
  .map(([path, before, after, dot]) => `{{${before}${path.join(dot)}${after}}}`)
const template = fc.array(fc.oneof(text, output, output), { maxLength: 6 }).map((p) => p.join(''))

const data = templateData([...names, ...odd], ['a "quoted"\n\ttext\r\\', '{{ payload.name }}', ''])
const mode = fc.constantFrom<EscapeMode>('json', 'raw')

/** The render, or that it failed (the comment moves the columns an error names). */
function outcome(render: () => string): string {
  try {
    return render()
  } catch {
    return 'the render failed'
  }
}

test('a simple text renders as liquidjs renders it, whatever the data, in both escape modes', () => {
  let simple = 0
  fc.assert(
    fc.property(template, data, mode, (source, values, escape) => {
      const render = simpleLiquid(source, escape)?.(values)
      if (render === undefined) return
      simple++
      expect(render).toBe(byLiquid(source, values, escape))
    }),
    { numRuns: 10_000 }
  )
  // The texts and data above are simple often enough for the property to say something.
  expect(simple).toBeGreaterThan(2_000)
})

test('renderLiquid gives what liquidjs gives, simple text or not', () => {
  fc.assert(
    fc.property(template, data, mode, (source, values, escape) => {
      expect(outcome(() => rendered(source, values, escape))).toBe(
        outcome(() => byLiquid(source, values, escape))
      )
    }),
    { numRuns: 3_000 }
  )
})

test('texts with more than names in their outputs are left to liquidjs', () => {
  const texts = [
    '{% if a %}x{% endif %}',
    '{{ a }}{%- comment -%}{%- endcomment -%}',
    '{{- a }}',
    '{{ a -}}',
    '{{ a | upcase }}',
    '{{ a["b"] }}',
    '{{ a[0] }}',
    '{{ a.0 }}',
    '{{ a-b }}',
    '{{ a? }}',
    '{{ true }}',
    '{{ nil }}',
    '{{ empty }}',
    '{{ a.size }}',
    '{{ a.first }}',
    '{{ items.last }}',
    '{{ a and b }}',
    "{{ 'text' }}",
    '{{ 1 }}',
    '{{ (1..3) }}',
    '{{}}',
    '{{ a }',
    '{{ ünïcode }}',
    '{{\u00a0a }}',
  ]
  for (const source of texts) expect(simpleLiquid(source, 'json'), source).toBeUndefined()
})

test('a value liquidjs writes otherwise than as text is left to it', () => {
  const render = simpleLiquid('{{ a.b }}', 'json')
  expect(render?.({ a: { b: 'x' } })).toBe('x')
  for (const data of NOT_TEXT_AT_A_B) expect(render?.(data)).toBeUndefined()
})

test('strings are escaped for a JSON string in json mode and written as they are in raw mode', () => {
  const data = { payload: { note: 'say "hi"\n\tto C:\\temp\r' } }
  expect(rendered('{"body":"{{ payload.note }}"}', data, 'json')).toBe(
    '{"body":"say \\"hi\\"\\n\\tto C:\\\\temp\\r"}'
  )
  expect(rendered('<p>{{ payload.note }}</p>', data, 'raw')).toBe(`<p>${data.payload.note}</p>`)
})

test('a missing or empty path writes nothing, and zero and false are written', () => {
  const source = '[{{ a.b }}|{{ c }}|{{ d }}|{{ e }}]'
  expect(rendered(source, { a: null, c: 0, d: false }, 'json')).toBe('[|0|false|]')
  expect(rendered(source, {}, 'raw')).toBe('[|||]')
})

test('an object in a simple text is written as liquidjs writes it, as single-quoted JSON', () => {
  const data = { payload: { order: { id: 7, items: ['a'] } } }
  expect(rendered('{{ payload.order }}', data, 'raw')).toBe("{'id':7,'items':['a']}")
  expect(rendered('{{ payload.order }}', data, 'raw')).toBe(
    byLiquid('{{ payload.order }}', data, 'raw')
  )
})

test('a long text of many outputs renders as liquidjs renders it', () => {
  const source = Array.from({ length: 5_000 }, (_, i) => `<p>{{ a.b }} ${i} {{c}}</p>`).join('\n')
  const data = { a: { b: 'Zoë & 😀 \u202e "x"' }, c: 42 }
  for (const escape of ['json', 'raw'] as const)
    expect(rendered(source, data, escape)).toBe(byLiquid(source, data, escape))
})
