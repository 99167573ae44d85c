import { createRequire } from 'node:module'
import type legacySlugifyType from 'slugify'
import type slugifyType from '@sindresorhus/slugify'
import type { Rng } from '../tenancy/prng.js'
import { BoundedCache, textBytes } from '../cache.js'

// Loaded on first use, off the start-up path: @sindresorhus/transliterate builds its pattern of
// every replacement when it loads, a tenth of the CLI's start (bench/startup.mjs). Node 20.19
// requires an ES module synchronously.
const requireLazily = createRequire(import.meta.url)
let legacySlugify: typeof legacySlugifyType | undefined
let slugify: typeof slugifyType | undefined
const loadLegacy = () => (legacySlugify ??= requireLazily('slugify') as typeof legacySlugifyType)
const loadCurrent = () =>
  (slugify ??= (requireLazily('@sindresorhus/slugify') as { default: typeof slugifyType }).default)

const pick = (alphabet: string, length: number, rng: Rng) => {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rng() * alphabet.length)]
  return out
}

const SHORTID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-'
const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz'

/** How a generation turns a workflow name into its trigger identifier. */
export interface IdentifierRules {
  /** The identifier the name slugs to, before any collision suffix. */
  slug(name: string, rng: Rng): string
  /** A free identifier for the slug, or undefined when upstream gives up (its 400). */
  unique(slug: string, taken: (identifier: string) => boolean, rng: Rng): string | undefined
}

/**
 * A slug function remembered for the last few hundred names: test suites create the same
 * workflows again and again, and transliteration is most of a slug's cost.
 */
function remembered(name: string, slug: (name: string) => string): (name: string) => string {
  const known = new BoundedCache<string, string>(name, {
    maxEntries: 512,
    sizeOf: (found) => textBytes(found),
  })
  return (name) => {
    const found = known.get(name)
    if (found !== undefined) return found
    return name.length <= 256 ? known.set(name, slug(name)) : slug(name)
  }
}

const legacy = remembered('slugs (slugify)', (name) =>
  loadLegacy()(name, { lower: true, strict: true })
)

/**
 * What @sindresorhus/slugify (3.x, default options) gives for a name of ASCII characters, or
 * undefined for any other name. Its transliteration tables hold no ASCII key, so for such a
 * name transliterating only spells out `&` and drops the two ASCII diacritics (^ and `): the
 * library's remaining steps are a few regular expressions, done here without loading it. Loading
 * it builds a pattern of every replacement in nine variants: 1 MB of heap, 7 MB of resident
 * memory and 25 ms, for names such as "In-app" or "Order shipped (v2)" that are all ASCII.
 * src/generations/slugs.test.ts holds this to the library on arbitrary ASCII names.
 */
export function asciiSlug(name: string): string | undefined {
  if (NOT_ASCII.test(name)) return undefined
  const spelled = name.replaceAll('&', ' and ').replace(ASCII_DIACRITICS, '')
  // Decamelised as the library does it: FOO360 → FOO 360, fooBar → foo Bar, APISection → API
  // Section, but APIs stays whole.
  const words = spelled
    .replace(ACRONYM_THEN_DIGITS, '$1 $2')
    .replace(LOWER_THEN_UPPER, '$1 $2')
    .replace(ACRONYM_THEN_WORD, '$1 $2')
    .toLowerCase()
    // Conway's law → conways law; only a word-final 't or 's.
    .replace(CONTRACTION, '$1$2')
  return words.replace(NOT_SLUG, '-').replace(EDGE_DASHES, '')
}

// eslint-disable-next-line no-control-regex -- every code point above ASCII
const NOT_ASCII = /[^\x00-\x7f]/
const ASCII_DIACRITICS = /[\^`]/g
const ACRONYM_THEN_DIGITS = /([A-Z]{2})(\d+)/g
const LOWER_THEN_UPPER = /([a-z\d])([A-Z])/g
const ACRONYM_THEN_WORD = /([A-Z])([A-Z](?!s(?![a-z]))[a-z\d]+)/g
const CONTRACTION = /([a-z\d])'([ts])(?![a-z\d])/g
const NOT_SLUG = /[^a-z\d]+/g
const EDGE_DASHES = /^-|-$/g

const current = remembered(
  'slugs (@sindresorhus/slugify)',
  (name) => asciiSlug(name) ?? loadCurrent()(name)
)

/** 2024-10: the `slugify` package, strict and lower case; one shortid appended on a collision. */
export const identifiers2024: IdentifierRules = {
  slug: (name) => legacy(name),
  unique: (slug, taken, rng) => (taken(slug) ? `${slug}-${pick(SHORTID_ALPHABET, 9, rng)}` : slug),
}

/**
 * Since late 2024: upstream's own slugify, a port of @sindresorhus/slugify (decamelised,
 * transliterated, `&` as "and"); an empty slug becomes a random id; three tries in all.
 */
export const identifiers2026: IdentifierRules = {
  slug: (name, rng) => current(name) || pick(LOWER_ALPHANUMERIC, 8, rng),
  unique(slug, taken, rng) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const candidate = attempt === 0 ? slug : `${slug}-${pick(LOWER_ALPHANUMERIC, 8, rng)}`
      if (!taken(candidate)) return candidate
    }
    return undefined
  },
}
