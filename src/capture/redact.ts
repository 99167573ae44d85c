/**
 * Secrets never reach the scenario file: the value of every field named like one (API keys,
 * tokens, passwords, credentials, webhook URLs), at any depth of any record, becomes a
 * placeholder, and the file's header says which fields were replaced.
 */
import { isObj } from '../objects.js'

export const PLACEHOLDER = '<redacted by novu-mock capture>'

const SECRET_FIELD =
  /(api[-_]?key|secret|token|passw(or)?d|credential|authori[sz]ation|private[-_]?key|webhook[-_]?url|^auth$)/i

export interface Redaction {
  /** How many values were replaced. */
  count: number
  /** The names of the fields replaced, each once. */
  fields: Set<string>
}

export const newRedaction = (): Redaction => ({ count: 0, fields: new Set() })

/** Every string, number or boolean under a secret field becomes the placeholder. */
function blank(value: unknown, redaction: Redaction): unknown {
  if (Array.isArray(value)) return value.map((v) => blank(v, redaction))
  if (isObj(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v, redaction)]))
  if (value === null || value === undefined || value === '') return value
  redaction.count++
  return PLACEHOLDER
}

/** A copy of the value with the secrets it holds replaced. */
export function redactSecrets(value: unknown, redaction: Redaction): unknown {
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, redaction))
  if (!isObj(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_FIELD.test(key)) {
      const before = redaction.count
      out[key] = blank(inner, redaction)
      if (redaction.count > before) redaction.fields.add(key)
    } else out[key] = redactSecrets(inner, redaction)
  }
  return out
}
