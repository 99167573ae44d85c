import { createHmac } from 'node:crypto'
import type { Rng } from '../tenancy/prng.js'

/**
 * Svix's signature (the Standard Webhooks scheme): HMAC-SHA256 over `id.timestamp.body`, keyed
 * by the base64-decoded part of the secret after `whsec_`, sent as `v1,<base64>`.
 */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}

const SECRET_PREFIX = 'whsec_'

/** Svix takes secrets of 24 to 64 bytes. */
const SECRET_BYTES = { min: 24, max: 64 }

/** Whether a secret is `whsec_` and base64 of 24 to 64 bytes, as Svix takes it. */
export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false
  const text = secret.slice(SECRET_PREFIX.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return false
  const bytes = Buffer.from(text, 'base64').length
  return bytes >= SECRET_BYTES.min && bytes <= SECRET_BYTES.max
}

/** A secret of Svix's default size (24 bytes), from the seeded generator. */
export function newSecret(rng: Rng): string {
  const bytes = Buffer.alloc(24)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rng() * 256)
  return `${SECRET_PREFIX}${bytes.toString('base64')}`
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `prefix_` and 27 base62 characters: the shape of Svix's ids (`msg_…`, `ep_…`). */
export function svixId(prefix: string, rng: Rng): string {
  let text = ''
  for (let i = 0; i < 27; i++) text += BASE62[Math.floor(rng() * 62)]
  return `${prefix}_${text}`
}
