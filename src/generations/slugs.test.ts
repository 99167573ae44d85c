import { createRequire } from 'node:module'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { plainSlug } from './slugs.js'

const slugify = (
  createRequire(import.meta.url)('@sindresorhus/slugify') as {
    default: (name: string) => string
  }
).default

const word = fc.oneof(fc.stringMatching(/^[a-z\d]{0,8}$/), fc.stringMatching(/^[A-Z][a-z\d]{0,8}$/))
const spaces = fc.stringMatching(/^ {1,3}$/)

test('a name of plain words slugs as @sindresorhus/slugify slugs it', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(word, spaces), { maxLength: 6 }), word, (pairs, last) => {
      const name = pairs.map(([w, s]) => w + s).join('') + last
      expect(plainSlug(name)).toBe(slugify(name))
    }),
    { numRuns: 2000 }
  )
})

test('a name with camel case, an acronym, punctuation or accents is left to the library', () => {
  for (const name of ['orderShipped', 'API key', "Conway's law", 'Crème brûlée', 'A&B', 'FOO360'])
    expect(plainSlug(name)).toBeUndefined()
})
