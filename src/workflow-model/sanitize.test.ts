// checkEditorContent is the workflow builder's per-request check; these tests call it directly
// until the builder does (each text is also held to the limit inside sanitizeContent).
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { plainTexts } from '../../test/template-data.js'
import { checkEditorContent, EDITOR_LIMITS, elementsOpened, sanitizeContent } from './sanitize.js'

const half = 'x'.repeat(EDITOR_LIMITS.chars / 2)
const editor = (content: unknown) => ({
  template: { type: 'email', contentType: 'editor', content },
})

test('counts the editor content of every step and variant against one limit per request', () => {
  const steps = [editor(half), { ...editor([{ content: half }]), variants: [editor('x')] }]
  expect(() => checkEditorContent(steps)).toThrow(
    "Editor content is longer than 1,048,576 characters (novu-mock's limit)"
  )
})

test('accepts editor content of exactly the limit across steps', () => {
  expect(() => checkEditorContent([editor(half), editor([{ content: half }])])).not.toThrow()
})

test('leaves content that is not editor content to the template limits', () => {
  const custom = { template: { type: 'email', contentType: 'customHtml', content: half + half } }
  expect(() => checkEditorContent([custom, editor(half), 'not a step'])).not.toThrow()
})

// The reference: the same text inside a paragraph, which sends it through sanitize-html.
const bySanitizer = (text: string) => (sanitizeContent(`<p>${text}</p>`) as string).slice(3, -4)

test('editor text with no tag, entity or angle bracket comes back as sanitize-html gives it', () => {
  fc.assert(
    fc.property(plainTexts, (text) => {
      expect(sanitizeContent(text)).toBe(text)
      expect(sanitizeContent([{ type: 'text', content: text }])).toEqual([
        { type: 'text', content: text },
      ])
      expect(bySanitizer(text)).toBe(text)
    }),
    { numRuns: 3_000 }
  )
})

test('editor text with markup or an ampersand is still sanitised', () => {
  const before = elementsOpened()
  expect(sanitizeContent('Tom & Jerry <b onclick="x()">hi</b>')).toBe('Tom &amp; Jerry <b>hi</b>')
  expect(elementsOpened() - before).toBe(1)
})
