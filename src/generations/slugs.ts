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
 * Words of ASCII letters and digits, each lower case or capitalised, between spaces: what
 * @sindresorhus/slugify gives for them needs none of its work (nothing to transliterate, no
 * camel case to split, no apostrophe), only lower case and dashes. The scenarios' workflow
 * names are such ("Welcome email"): the first environment is built without loading it.
 */
const PLAIN_WORDS = /^ *(?:[A-Z]?[a-z\d]* +)*[A-Z]?[a-z\d]* *$/
export const plainSlug = (name: string): string | undefined =>
  PLAIN_WORDS.test(name) ? name.toLowerCase().split(' ').filter(Boolean).join('-') : undefined

const current = remembered(
  'slugs (@sindresorhus/slugify)',
  (name) => plainSlug(name) ?? loadCurrent()(name)
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
