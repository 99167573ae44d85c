/**
 * Upstream's slugs (`welcome-email_wf_g90z2yIFnyb6NHKy`): the entity's slugified name, a short
 * type prefix and the base62 form of its 12-byte id; and the path pipe that turns such a slug
 * back into the id.
 */
import type { Rng } from '../../tenancy/prng.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE = BigInt(ALPHABET.length)
const ENCODED_ID_LENGTH = 16
const PREFIXES = ['wf_', 'st_', 'env_', 'lt_', 'stp_'] as const

/** base-x over the id's bytes: each leading zero byte is a leading '0'. */
export function encodeBase62(hex: string): string {
  if (isInternalId(hex)) return encodeObjectId(hex)
  const bytes = hex.match(/../g) ?? []
  let zeroes = 0
  while (zeroes < bytes.length && bytes[zeroes] === '00') zeroes++
  let value = BigInt(`0x${hex || '0'}`)
  let out = ''
  while (value > 0n) {
    out = ALPHABET[Number(value % BASE)] + out
    value /= BASE
  }
  return '0'.repeat(zeroes) + out
}

/**
 * encodeBase62 for a 12-byte id, without BigInt (every answer encodes one per step): the id as
 * three 32-bit limbs, divided by 62 limb by limb (a remainder times 2^32 plus a limb stays
 * below 2^53, exact in a double).
 */
function encodeObjectId(hex: string): string {
  const limbs = [
    Number.parseInt(hex.slice(0, 8), 16),
    Number.parseInt(hex.slice(8, 16), 16),
    Number.parseInt(hex.slice(16, 24), 16),
  ]
  let zeroes = 0
  while (
    zeroes < 12 &&
    hex.charCodeAt(zeroes * 2) === 0x30 &&
    hex.charCodeAt(zeroes * 2 + 1) === 0x30
  )
    zeroes++
  let out = ''
  while (limbs[0] || limbs[1] || limbs[2]) {
    let remainder = 0
    for (let i = 0; i < 3; i++) {
      const current = remainder * 0x100000000 + (limbs[i] as number)
      limbs[i] = Math.floor(current / 62)
      remainder = current % 62
    }
    out = ALPHABET[remainder] + out
  }
  return '0'.repeat(zeroes) + out
}

/** The hex bytes a base62 string stands for, or undefined when it holds another character. */
export function decodeBase62(encoded: string): string | undefined {
  let zeroes = 0
  while (zeroes < encoded.length && encoded[zeroes] === '0') zeroes++
  let value = 0n
  for (const char of encoded.slice(zeroes)) {
    const digit = ALPHABET.indexOf(char)
    if (digit === -1) return undefined
    value = value * BASE + BigInt(digit)
  }
  const rest = value === 0n ? '' : value.toString(16)
  return '00'.repeat(zeroes) + (rest.length % 2 ? `0${rest}` : rest)
}

/** A canonical ObjectId string: 24 lower-case hex characters. */
export const isInternalId = (value: string) => /^[0-9a-f]{24}$/.test(value)

export type SlugPrefix = 'wf_' | 'st_'

/** `slugifyOrRandom(name)` + `_` + prefix + base62(id); an unsluggable name draws a new random part each time. */
export function buildSlug(
  name: string,
  prefix: SlugPrefix,
  id: string,
  slugify: (name: string, rng: Rng) => string,
  rng: Rng
): string {
  return `${slugify(name, rng)}_${prefix}${encodeBase62(id)}`
}

/**
 * The path value as the real pipe passes it on: a slug with a known prefix decodes to its id,
 * anything else (an id, a workflowId of any length) is kept as it is.
 */
export function parseSlugId(value: string): string {
  if (!value || isInternalId(value) || value.length <= ENCODED_ID_LENGTH) return value
  const encoded = value.slice(-ENCODED_ID_LENGTH)
  const head = value.slice(0, -ENCODED_ID_LENGTH)
  const prefixed = PREFIXES.some((prefix) => {
    const suffix = `_${prefix}`
    return head.endsWith(suffix) && head.length > suffix.length
  })
  if (!prefixed) return value
  const decoded = decodeBase62(encoded)
  return decoded !== undefined && isInternalId(decoded) ? decoded : value
}
