import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  closeSlashedEndTags,
  emptyBlankParagraphs,
  firstOutputExpression,
  removeComments,
  removeDoctypes,
} from './text-scans.js'

// Each scan stands in for one of upstream's regular expressions: on texts made of the pieces
// those expressions care about, both must give the same, character for character.

const PIECES = [
  '<',
  '>',
  '/',
  '</',
  '</a',
  '</style',
  '/>',
  '<p',
  '<p>',
  '</p>',
  '<!--',
  '-->',
  '<!--$-->',
  '<!DOCTYPE',
  '<!DOCTYPE html>',
  '{{',
  '}}',
  '|',
  ' ',
  '  ',
  '\n',
  '\r',
  '\t',
  '\u2028',
  '\u00a0',
  'a',
  'B9',
  '-',
  '$',
  'x.y',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''))
const RUNS = { numRuns: 3000, seed: 18 }

test('closeSlashedEndTags gives what the regular expression gives', () => {
  fc.assert(
    fc.property(text, (html) => {
      const expected = html.replace(/<\/([a-zA-Z][a-zA-Z0-9]*)\s*\/[^>]*>/g, '</$1>')
      expect(closeSlashedEndTags(html)).toBe(expected)
    }),
    RUNS
  )
})

test('removeDoctypes gives what the regular expression gives', () => {
  fc.assert(
    fc.property(text, (html) => {
      expect(removeDoctypes(html)).toBe(html.replace(/<!DOCTYPE.*?>/g, ''))
    }),
    RUNS
  )
})

test('removeComments gives what the regular expression gives', () => {
  fc.assert(
    fc.property(text, (html) => {
      expect(removeComments(html)).toBe(html.replace(/<!--[\s\S]*?-->/g, ''))
    }),
    RUNS
  )
})

test('emptyBlankParagraphs gives what the regular expression gives', () => {
  fc.assert(
    fc.property(text, (html) => {
      expect(emptyBlankParagraphs(html)).toBe(html.replace(/<p([^>]*)>\s+<\/p>/g, '<p$1></p>'))
    }),
    RUNS
  )
})

test('firstOutputExpression captures what the regular expression captures', () => {
  fc.assert(
    fc.property(text, (value) => {
      expect(firstOutputExpression(value)).toBe(/\{\{\s*(.*?)\s*\}\}/.exec(value)?.[1])
    }),
    RUNS
  )
})

// The texts that made the expressions retry from every start: a scan reads each character a
// bounded number of times, so a megabyte of them takes milliseconds (the expressions: hours).

test('a megabyte of end tags without a closing bracket comes back unchanged', () => {
  const html = '</a/'.repeat(262_144)
  expect(closeSlashedEndTags(html) === html).toBe(true)
})

test('a megabyte of unclosed DOCTYPEs, comments and paragraphs comes back unchanged', () => {
  for (const [scan, piece, tail] of [
    [removeDoctypes, '<!DOCTYPE', '\n>'],
    [removeComments, '<!--', ' --'],
    [emptyBlankParagraphs, '<p', '>  x'],
  ] as const) {
    const html = piece.repeat(Math.floor(1_048_576 / piece.length)) + tail
    // Not toBe: a failure would print the megabyte.
    expect(scan(html) === html).toBe(true)
  }
})

test('an output opened by a megabyte of spaces and never closed has no expression', () => {
  expect(firstOutputExpression(`{{${' '.repeat(1_048_576)}x`)).toBeUndefined()
  expect(firstOutputExpression('{{ x'.repeat(262_144))).toBeUndefined()
})
