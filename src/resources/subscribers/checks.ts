import type { Check } from '../../http/rules.js'

/**
 * The subscriber DTO's format checks: class-validator's `@IsEmail()`, `@IsLocale()` and
 * `@IsTimeZone()`, whose rules come from the validator.js library (default options), written
 * out here from its documented behaviour.
 */

const EMAIL_USER_UTF8 = /^[a-z\d!#$%&'*+\-/=?^_`{|}~\u00A1-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+$/i
const QUOTED_EMAIL_USER_UTF8 =
  // eslint-disable-next-line no-control-regex
  /^([\s\x01-\x08\x0b\x0c\x0e-\x1f\x7f\x21\x23-\x5b\x5d-\x7e\u00A1-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]|(\\[\x01-\x09\x0b\x0c\x0d-\x7f\u00A1-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]))*$/i
const TLD = /^([a-z\u00A1-\u00A8\u00AA-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}|xn[a-z0-9-]{2,})$/i

/** The length of a text once URI-encoded as UTF-8, in bytes. */
function byteLength(text: string): number {
  try {
    return encodeURI(text).split(/%..|./).length - 1
  } catch {
    // A lone surrogate cannot be encoded: validator.js would throw, class-validator fails it.
    return Infinity
  }
}

/** validator.js `isFQDN` with `require_tld`, no underscores, no trailing dot, no numeric TLD. */
function isFqdn(domain: string): boolean {
  const parts = domain.split('.')
  const tld = parts[parts.length - 1] as string
  if (parts.length < 2 || !TLD.test(tld) || /\s/.test(tld)) return false
  if (/^\d+$/.test(tld)) return false
  return parts.every(
    (part) =>
      part.length <= 63 &&
      /^[a-z_\u00a1-\uffff0-9-]+$/i.test(part) &&
      !/[\uff01-\uff5e]/.test(part) &&
      !/^-|-$/.test(part) &&
      !/_/.test(part)
  )
}

/** validator.js `isEmail` with its default options (UTF-8 local parts, a TLD, no IP domains). */
function isEmailAddress(text: string): boolean {
  if (text.length > 254) return false
  const parts = text.split('@')
  const domain = parts.pop() as string
  let user = parts.join('@')
  if (byteLength(user) > 64 || byteLength(domain) > 254) return false
  if (!isFqdn(domain)) return false
  if (user[0] === '"') {
    user = user.slice(1, user.length - 1)
    return QUOTED_EMAIL_USER_UTF8.test(user)
  }
  return user.split('.').every((part) => EMAIL_USER_UTF8.test(part))
}

// validator.js isLocale: an RFC 5646 language tag, with "_" also taken as a delimiter.
const EXTLANG = '([A-Za-z]{3}(-[A-Za-z]{3}){0,2})'
const LANGUAGE = `(([a-zA-Z]{2,3}(-${EXTLANG})?)|([a-zA-Z]{5,8}))`
const SCRIPT = '([A-Za-z]{4})'
const REGION = '([A-Za-z]{2}|\\d{3})'
const VARIANT = '([A-Za-z0-9]{5,8}|(\\d[A-Z-a-z0-9]{3}))'
const SINGLETON = '(\\d|[A-W]|[Y-Z]|[a-w]|[y-z])'
const EXTENSION = `(${SINGLETON}(-[A-Za-z0-9]{2,8})+)`
const PRIVATE_USE = '(x(-[A-Za-z0-9]{1,8})+)'
const IRREGULAR =
  '((en-GB-oed)|(i-ami)|(i-bnn)|(i-default)|(i-enochian)|(i-hak)|(i-klingon)|(i-lux)|(i-mingo)|' +
  '(i-navajo)|(i-pwn)|(i-tao)|(i-tay)|(i-tsu)|(sgn-BE-FR)|(sgn-BE-NL)|(sgn-CH-DE))'
const REGULAR =
  '((art-lojban)|(cel-gaulish)|(no-bok)|(no-nyn)|(zh-guoyu)|(zh-hakka)|(zh-min)|(zh-min-nan)|(zh-xiang))'
const DELIMITER = '(-|_)'
const LANGTAG =
  `${LANGUAGE}(${DELIMITER}${SCRIPT})?(${DELIMITER}${REGION})?` +
  `(${DELIMITER}${VARIANT})*(${DELIMITER}${EXTENSION})*(${DELIMITER}${PRIVATE_USE})?`
const LOCALE = new RegExp(`(^${PRIVATE_USE}$)|(^(${IRREGULAR}|${REGULAR})$)|(^${LANGTAG}$)`)

export const isEmail: Check = (v, p) =>
  typeof v === 'string' && isEmailAddress(v) ? undefined : `${p} must be an email`

export const isLocale: Check = (v, p) =>
  typeof v === 'string' && LOCALE.test(v) ? undefined : `${p} must be locale`

/** What `Intl` accepts as a time zone (class-validator asks the same of the runtime). */
export const isTimeZone: Check = (v, p) => {
  if (typeof v === 'string') {
    try {
      Intl.DateTimeFormat(undefined, { timeZone: v })
      return undefined
    } catch {
      // not a zone
    }
  }
  return `${p} must be a valid IANA time-zone`
}
