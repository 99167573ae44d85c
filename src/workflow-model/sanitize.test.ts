// checkEditorContent is the workflow builder's per-request check; these tests call it directly
// until the builder does (each text is also held to the limit inside sanitizeContent).
import { expect, test } from 'vitest'
import { checkEditorContent, EDITOR_LIMITS } from './sanitize.js'

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
