/**
 * A small seeded PRNG (sfc32) with a string hash (cyrb128) for seeding. Same seed, same
 * sequence on every machine: it uses only 32-bit integer arithmetic.
 */
export type Rng = () => number

function hashSeed(text: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

export function createRng(seed: string): Rng {
  let [a, b, c, d] = hashSeed(seed)
  return () => {
    a |= 0
    b |= 0
    c |= 0
    d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/** A 32-bit integer derived from any text: faker's seed, a note's advice remembered. */
export const numericSeed = (text: string) => hashSeed(text)[0]

const HEX = '0123456789abcdef'
const hexCodes = Buffer.alloc(64)

/**
 * `length` hex digits from the generator, one draw each. Built as one flat string: text grown a
 * character at a time becomes a chain of V8 cons strings, several times the size of the
 * characters, in every id a store keeps.
 */
function randomHex(rng: Rng, length: number): string {
  const codes = length <= hexCodes.length ? hexCodes : Buffer.alloc(length)
  for (let i = 0; i < length; i++) codes[i] = HEX.charCodeAt(Math.floor(rng() * 16))
  return codes.toString('latin1', 0, length)
}

/** A v4-shaped UUID from the seeded generator (for error ids and the like). */
export function randomUuid(rng: Rng): string {
  const h = randomHex(rng, 32).split('')
  h[12] = '4'
  h[16] = '89ab'[Math.floor(rng() * 4)] ?? '8'
  const s = h.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
}
