import { isObj } from '../objects.js'

const REGEX_FORM = /^\/(.+)\/([dgimsuy]*)$/s
const MAX_SHOWN = 80

/** `/json/i` as a RegExp; undefined for any other string (or a pattern that does not compile). */
function asRegex(expected: string): RegExp | undefined {
  const parts = REGEX_FORM.exec(expected)
  if (!parts) return undefined
  try {
    return new RegExp(parts[1] ?? '', parts[2])
  } catch {
    return undefined
  }
}

/** A value as a failure message shows it: JSON, cut short; a missing value says so. */
export function show(value: unknown): string {
  if (value === undefined) return '(missing)'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text
}

/**
 * Compares an expectation with an actual JSON value and returns one message per difference, each
 * prefixed with where it is (`body.data[0].key: expected "a", got "b"`). The rule:
 * - an object matches an object that has every expected key, each matching recursively; extra keys
 *   are ignored;
 * - an array of n elements matches an array of at least n elements whose first n match
 *   element-wise; `[]` is the exception and matches only an empty array, so emptiness can be asserted;
 * - a string of the form `/pattern/flags` matches a string that the regular expression matches;
 * - anything else (strings, numbers, booleans, null) must be `===`.
 */
export function matchPartial(expected: unknown, actual: unknown, at: string): string[] {
  if (typeof expected === 'string') {
    const regex = asRegex(expected)
    if (regex) {
      return typeof actual === 'string' && regex.test(actual)
        ? []
        : [`${at}: expected ${expected}, got ${show(actual)}`]
    }
  }
  if (Array.isArray(expected)) return matchArray(expected, actual, at)
  if (isObj(expected)) {
    if (!isObj(actual)) return [`${at}: expected an object, got ${show(actual)}`]
    return Object.entries(expected).flatMap(([key, value]) =>
      matchPartial(value, actual[key], `${at}.${key}`)
    )
  }
  return expected === actual ? [] : [`${at}: expected ${show(expected)}, got ${show(actual)}`]
}

const elements = (n: number) => `${n} element${n === 1 ? '' : 's'}`

function matchArray(expected: unknown[], actual: unknown, at: string): string[] {
  if (!Array.isArray(actual)) return [`${at}: expected an array, got ${show(actual)}`]
  if (expected.length === 0 && actual.length > 0)
    return [`${at}: expected an empty array, got ${elements(actual.length)}`]
  if (actual.length < expected.length)
    return [`${at}: expected at least ${elements(expected.length)}, got ${actual.length}`]
  return expected.flatMap((item, index) => matchPartial(item, actual[index], `${at}[${index}]`))
}

/** Header names are case-insensitive; values compare exactly, or by regex in the /…/ form. */
export function matchHeaders(expected: Record<string, string>, headers: Headers): string[] {
  return Object.entries(expected).flatMap(([name, want]) => {
    const got = headers.get(name)
    const regex = asRegex(want)
    const ok = got !== null && (regex ? regex.test(got) : got === want)
    return ok ? [] : [`header ${name.toLowerCase()}: expected ${want}, got ${got ?? '(missing)'}`]
  })
}
