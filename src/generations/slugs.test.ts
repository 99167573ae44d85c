import { createRequire } from 'node:module'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { asciiSlug } from './slugs.js'

const slugify = (
  createRequire(import.meta.url)('@sindresorhus/slugify') as {
    default: (name: string) => string
  }
).default

// Names as people write them (words, capitals, digits, punctuation), and any ASCII at all.
const piece = fc.oneof(
  fc.stringMatching(/^[A-Za-z\d]{1,8}$/),
  fc.constantFrom(' ', '-', '_', "'s", "'t", "'", '&', '^', '`', '(', ')', '.', '/', '\\', 'APIs'),
  fc.stringMatching(/^[A-Z]{2,4}\d{0,3}[a-z]{0,3}$/)
)
const written = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''))
const anyAscii = fc.string({ unit: 'binary-ascii', maxLength: 40 })

test('an ASCII name slugs as @sindresorhus/slugify slugs it', () => {
  fc.assert(
    fc.property(fc.oneof(written, anyAscii), (name) => {
      expect(asciiSlug(name)).toBe(slugify(name))
    }),
    { numRuns: 20_000 }
  )
})

test('names the library treats with care slug as it slugs them', () => {
  const names = [
    'In-app',
    'Order shipped (trigger)',
    "Conway's Law",
    "DON'T panic",
    'FOO360 bar',
    'APISection',
    'APIs',
    'fooBar & Baz',
    '--Welcome--email--',
    'a^b`c',
    '',
    '   ',
    '\\path\\to',
  ]
  for (const name of names) expect(asciiSlug(name)).toBe(slugify(name))
})

test('a name with a character beyond ASCII is left to the library', () => {
  for (const name of ['Crème brûlée', 'Straße', '🦄 launch', 'I ♥ mail', 'Don’t'])
    expect(asciiSlug(name)).toBeUndefined()
})
