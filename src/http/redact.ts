/**
 * Secrets as the journal, its exports and the log may show them: enough to tell keys apart, never
 * a whole key. A key can come as `Authorization`, `X-Api-Key`, a cookie or a query parameter.
 */

/** A key cut to its first and last characters; a short key keeps at most two, never all. */
export function redactKey(key: string): string {
  if (key.length <= 2) return '…'
  if (key.length <= 8) return `${key.slice(0, 2)}…`
  return `${key.slice(0, 4)}…${key.slice(-2)}`
}

/** `Authorization`-style headers: the scheme stays readable. */
const SCHEME_HEADERS = new Set(['authorization', 'proxy-authorization'])
const KEY_HEADERS = /^(x-)?(api-?key|auth-token|access-token|token)$/
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie'])

/** Whether a header (by its lower-case name) carries a secret the journal and exports redact. */
export const isSecretHeader = (name: string) =>
  SCHEME_HEADERS.has(name) || KEY_HEADERS.test(name) || COOKIE_HEADERS.has(name)

const redactPair = (pair: string) => {
  const eq = pair.indexOf('=')
  return eq === -1
    ? redactKey(pair.trim())
    : `${pair.slice(0, eq + 1)}${redactKey(pair.slice(eq + 1))}`
}

/** `Cookie: a=1; b=2` keeps the names; `Set-Cookie` keeps its attributes (Path, HttpOnly …). */
function redactCookie(name: string, value: string): string {
  if (name === 'set-cookie') {
    const semi = value.indexOf(';')
    return semi === -1 ? redactPair(value) : redactPair(value.slice(0, semi)) + value.slice(semi)
  }
  return value.split(';').map(redactPair).join(';')
}

/** A header value as it may be shown; `name` in lower case. */
export function redactHeader(name: string, value: string): string {
  if (SCHEME_HEADERS.has(name)) {
    const space = value.indexOf(' ')
    return space === -1
      ? redactKey(value)
      : `${value.slice(0, space)} ${redactKey(value.slice(space + 1))}`
  }
  if (KEY_HEADERS.test(name)) return redactKey(value)
  if (COOKIE_HEADERS.has(name)) return redactCookie(name, value)
  return value
}

const SECRET_PARAMS =
  /^(api[-_]?key|key|(access|auth|id|refresh)?[-_]?token|(client[-_]?)?secret|password)$/i
/** `key` is the topic key on `GET /v1/topics`: a name, not a secret, and the replay needs it. */
const PLAIN_PARAMS: { name: string; path: RegExp }[] = [{ name: 'key', path: /^\/v1\/topics\/?$/ }]

/** Whether a query parameter of a request to `path` carries a secret. */
export function isSecretParam(name: string, path: string): boolean {
  return (
    SECRET_PARAMS.test(name) &&
    !PLAIN_PARAMS.some((plain) => plain.name === name && plain.path.test(path))
  )
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/**
 * A path with its query string (`/__admin/reset?apiKey=K`), the secret parameters' values
 * redacted and everything else left as it came.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?')
  if (mark === -1) return url
  const hash = url.indexOf('#', mark)
  const end = hash === -1 ? url.length : hash
  const path = url.slice(0, mark)
  const query = url
    .slice(mark + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq === -1 || !isSecretParam(decode(pair.slice(0, eq)), path)) return pair
      // The ellipsis stays readable in a log line; what is left of the key stays encoded.
      const shown = encodeURIComponent(redactKey(decode(pair.slice(eq + 1))))
      return `${pair.slice(0, eq + 1)}${shown.replaceAll('%E2%80%A6', '…')}`
    })
    .join('&')
  return `${path}?${query}${url.slice(end)}`
}
