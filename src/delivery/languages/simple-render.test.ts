import fc from 'fast-check'
import { expect, test } from 'vitest'
import { NOT_TEXT_AT_A_B, templateData } from '../../../test/template-data.js'
import { loadHandlebars } from './handlebars-build.js'
import { helperNames, renderTemplate } from './handlebars.js'
import { HELPER_NAMES, simpleTemplate } from './simple-render.js'

// The reference: Handlebars itself, as upstream's CompileTemplate calls it. The simple texts name
// no helper, so a bare environment renders them as the renderer's own does.
const handlebars = loadHandlebars().create()
const byHandlebars = (text: string, data: object) =>
  handlebars
    .compile(text, { data: true })(data, {})
    .replace(/&#x27;/g, "'")
const simply = (text: string, data: Record<string, unknown>) =>
  simpleTemplate(text)?.(data)?.replace(/&#x27;/g, "'")

const names = [
  'payload',
  'subscriber',
  'firstName',
  'name',
  'items',
  'length',
  'a',
  'x-y',
  '$',
  '_',
]
const odd = ['this', 'true', 'null', 'else', 'json', 'each', 'log', 'constructor', 'toString', '0']
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('&', '<b>', '"', "'", '`', '=', '}', '{', '\\', '\n', ' ', '}}', '{', '{{{', '~')
)
const mustache = fc
  .tuple(
    fc.array(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...names) }, fc.constantFrom(...odd)),
      {
        minLength: 1,
        maxLength: 3,
      }
    ),
    fc.constantFrom('', ' ', '  '),
    fc.constantFrom('', ' ', '\n')
  )
  .map(([path, before, after]) => `{{${before}${path.join('.')}${after}}}`)
const template = fc
  .array(fc.oneof(text, mustache, mustache), { maxLength: 6 })
  .map((p) => p.join(''))

const data = templateData([...names, ...odd], ['<a href="x">&</a>', "it's", '`=`', ''])

test('a simple text renders as Handlebars renders it, whatever the data', () => {
  let simple = 0
  fc.assert(
    fc.property(template, data, (source, values) => {
      const record = values as Record<string, unknown>
      const rendered = simply(source, record)
      if (rendered === undefined) return
      simple++
      expect(rendered).toBe(byHandlebars(source, record))
    }),
    { numRuns: 20_000 }
  )
  // The texts and data above are simple often enough for the property to say something.
  expect(simple).toBeGreaterThan(5_000)
})

test('the renderer gives what Handlebars gives, simple text or not', () => {
  fc.assert(
    fc.property(template, data, (source, values) => {
      let expected: string
      try {
        expected = byHandlebars(source, values)
      } catch {
        return
      }
      // A text that names a helper is the renderer's helpers' to answer.
      if (names.concat(odd).some((n) => HELPER_NAMES.has(n) && source.includes(n))) return
      expect(renderTemplate(source, values as Record<string, unknown>)).toBe(expected)
    }),
    { numRuns: 5_000 }
  )
})

test('every helper of the renderer is one a simple text leaves to Handlebars', () => {
  expect([...helperNames()].sort()).toEqual([...HELPER_NAMES].sort())
})

test('texts with more than names in their mustaches are left to Handlebars', () => {
  const texts = [
    '{{a}}}',
    '\\{{a}}',
    '{{else}}',
    '{{ else }}',
    '{{else-x}}',
    '{{this.a}}',
    '{{a.this}}',
    '{{true}}',
    '{{a.null}}',
    '{{uppercase}}',
    '{{a.constructor}}',
    '{{__proto__}}',
    '{{@index}}',
    '{{a/b}}',
    '{{../a}}',
    '{{#if a}}x{{/if}}',
    '{{!c}}',
    '{{~a}}',
    '{{a~}}',
    '{{{a}}}',
    '{{&a}}',
    '{{> p}}',
    '{{a b}}',
    '{{a.[b]}}',
    '{{1}}',
    '{{a.0}}',
    '{{ a . b }}',
    'x\0{{a}}',
    '{{ünïcode}}',
  ]
  for (const source of texts) expect(simpleTemplate(source), source).toBeUndefined()
})

test('a value Handlebars writes otherwise than as text is left to it', () => {
  const render = simpleTemplate('{{a.b}}')
  expect(render?.({ a: { b: 'x' } })).toBe('x')
  for (const data of NOT_TEXT_AT_A_B) expect(render?.(data)).toBeUndefined()
})

test('a missing or empty path writes nothing, and zero and false are written', () => {
  const render = simpleTemplate('[{{a.b}}|{{c}}|{{d}}|{{e}}]')
  expect(render?.({ a: null, c: 0, d: false })).toBe('[|0|false|]')
  expect(render?.({})).toBe('[|||]')
})

test('the renderer escapes HTML as Handlebars does, apostrophes excepted as upstream does', () => {
  const data = { payload: { name: `<a href="x">Tom & Jerry's \`=\`</a>` } }
  expect(renderTemplate('Hi {{payload.name}}!', data)).toBe(
    "Hi &lt;a href&#x3D;&quot;x&quot;&gt;Tom &amp; Jerry's &#x60;&#x3D;&#x60;&lt;/a&gt;!"
  )
  expect(renderTemplate('Hi {{payload.name}}!', data)).toBe(
    byHandlebars('Hi {{payload.name}}!', data)
  )
})

test('a long text of many mustaches renders as Handlebars renders it', () => {
  const source = Array.from({ length: 5_000 }, (_, i) => `<p>{{a.b}} ${i} {{c}}</p>`).join('\n')
  const data = { a: { b: 'Zoë & 😀 \u202e' }, c: 42 }
  expect(simply(source, data)).toBe(byHandlebars(source, data))
})
