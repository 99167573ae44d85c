import fc from 'fast-check'
import { expect, test } from 'vitest'
import { sanitizeHtmlText } from './bridge-html.js'

// The reference: the same text inside an element, which sends it through sanitize-html.
const bySanitizer = (text: string) => sanitizeHtmlText(`<b>${text}</b>`).slice(3, -4)
const plain = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(
        '\0',
        '\r',
        '\n',
        '"',
        "'",
        '=',
        '/',
        '!',
        '-',
        ';',
        '#',
        ' ',
        '\ufeff'
      ),
      maxLength: 20,
    })
  )
  .filter((text) => !/[<>&]/.test(text))

test('a text with no tag, entity or angle bracket comes back as sanitize-html gives it', () => {
  fc.assert(
    fc.property(plain, (text) => {
      expect(sanitizeHtmlText(text)).toBe(text)
      expect(bySanitizer(text)).toBe(text)
    }),
    { numRuns: 5_000 }
  )
})

test('a text with an ampersand or an angle bracket is still sanitised', () => {
  expect(sanitizeHtmlText('Tom & Jerry')).toBe('Tom &amp; Jerry')
  expect(sanitizeHtmlText('1 > 0')).toBe('1 &gt; 0')
  expect(sanitizeHtmlText('<b onclick="x()">hi</b><script>x()</script>')).toBe('<b>hi</b>')
})
