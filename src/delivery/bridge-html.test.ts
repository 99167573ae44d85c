import fc from 'fast-check'
import { expect, test } from 'vitest'
import { plainTexts } from '../../test/template-data.js'
import { sanitizeHtmlText } from './bridge-html.js'

// The reference: the same text inside an element, which sends it through sanitize-html.
const bySanitizer = (text: string) => sanitizeHtmlText(`<b>${text}</b>`).slice(3, -4)

test('a text with no tag, entity or angle bracket comes back as sanitize-html gives it', () => {
  fc.assert(
    fc.property(plainTexts, (text) => {
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
