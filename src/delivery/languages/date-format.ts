/**
 * The tokens of date-fns' `format` that Novu's `dateFormat` helper passes on, written out from
 * date-fns' documented behaviour. Dates print in UTC (the time zone Novu's servers run in).
 * A letter date-fns does not know, or one it refuses without options (`YYYY`, `DD`), throws as
 * date-fns does: the helper's render then fails as upstream's does.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, '0')

function ordinal(n: number): string {
  const rem100 = n % 100
  if (rem100 > 10 && rem100 < 20) return `${n}th`
  switch (n % 10) {
    case 1:
      return `${n}st`
    case 2:
      return `${n}nd`
    case 3:
      return `${n}rd`
    default:
      return `${n}th`
  }
}

function dayOfYear(date: Date): number {
  const start = Date.UTC(date.getUTCFullYear(), 0, 1)
  return Math.floor((date.getTime() - start) / 86_400_000) + 1
}

type Formatter = (date: Date, token: string) => string

function numberToken(value: number, token: string, withOrdinal = true): string {
  if (withOrdinal && token.endsWith('o')) return ordinal(value)
  return pad(value, token.length)
}

const hours12 = (date: Date) => date.getUTCHours() % 12 || 12

const FORMATTERS: Record<string, Formatter> = {
  y(date, token) {
    const year = date.getUTCFullYear()
    if (token === 'yo') return ordinal(year)
    if (token === 'yy') return pad(year % 100, 2)
    return pad(year, token.length)
  },
  M(date, token) {
    const month = date.getUTCMonth()
    if (token === 'MMM') return MONTHS[month]?.slice(0, 3) ?? ''
    if (token === 'MMMM') return MONTHS[month] ?? ''
    if (token === 'MMMMM') return MONTHS[month]?.charAt(0) ?? ''
    return numberToken(month + 1, token)
  },
  L: (date, token) => FORMATTERS.M?.(date, token.replace(/L/g, 'M')) ?? '',
  Q(date, token) {
    const quarter = Math.floor(date.getUTCMonth() / 3) + 1
    if (token === 'QQQ') return `Q${quarter}`
    if (token === 'QQQQ') return `${ordinal(quarter)} quarter`
    return numberToken(quarter, token)
  },
  d: (date, token) => numberToken(date.getUTCDate(), token),
  E(date, token) {
    const day = DAYS[date.getUTCDay()] ?? ''
    if (token.length <= 3) return day.slice(0, 3)
    if (token.length === 4) return day
    if (token.length === 5) return day.charAt(0)
    return day.slice(0, 2)
  },
  i(date, token) {
    const iso = date.getUTCDay() || 7
    if (token.length <= 2 || token === 'io') return numberToken(iso, token)
    return FORMATTERS.E?.(date, 'E'.repeat(token.length)) ?? ''
  },
  a(date, token) {
    const pm = date.getUTCHours() >= 12
    if (token.length === 3) return pm ? 'pm' : 'am'
    if (token.length === 4) return pm ? 'p.m.' : 'a.m.'
    if (token.length === 5) return pm ? 'p' : 'a'
    return pm ? 'PM' : 'AM'
  },
  H: (date, token) => numberToken(date.getUTCHours(), token),
  h: (date, token) => numberToken(hours12(date), token),
  K: (date, token) => numberToken(date.getUTCHours() % 12, token),
  k: (date, token) => numberToken(date.getUTCHours() || 24, token),
  m: (date, token) => numberToken(date.getUTCMinutes(), token),
  s: (date, token) => numberToken(date.getUTCSeconds(), token),
  S(date, token) {
    const ms = pad(date.getUTCMilliseconds(), 3)
    return (ms + '0'.repeat(Math.max(0, token.length - 3))).slice(0, token.length)
  },
  X: (_date, token) => (token.length === 1 ? 'Z' : 'Z'),
  x: (_date, token) =>
    token.length === 1 ? '+00' : token.length === 2 || token.length === 4 ? '+0000' : '+00:00',
  T: (date) => String(date.getTime()),
  t: (date) => String(Math.floor(date.getTime() / 1000)),
  P(date, token) {
    const d = date
    if (token === 'P')
      return `${pad(d.getUTCMonth() + 1, 2)}/${pad(d.getUTCDate(), 2)}/${d.getUTCFullYear()}`
    const month = MONTHS[d.getUTCMonth()] ?? ''
    if (token === 'PP') return `${month.slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
    if (token === 'PPP') return `${month} ${ordinal(d.getUTCDate())}, ${d.getUTCFullYear()}`
    return `${DAYS[d.getUTCDay()]}, ${month} ${ordinal(d.getUTCDate())}, ${d.getUTCFullYear()}`
  },
  p(date, token) {
    const time = `${hours12(date)}:${pad(date.getUTCMinutes(), 2)}`
    const seconds = token.length > 1 ? `:${pad(date.getUTCSeconds(), 2)}` : ''
    return `${time}${seconds} ${date.getUTCHours() >= 12 ? 'PM' : 'AM'}`
  },
}
FORMATTERS.D = (date, token) => numberToken(dayOfYear(date), token)

/** date-fns refuses these without `useAdditionalWeekYearTokens` / `useAdditionalDayOfYearTokens`. */
const PROTECTED: Record<string, string> = {
  YYYY: 'Use `yyyy` instead of `YYYY` (in `{format}`) for formatting years to the input `{date}`',
  YY: 'Use `yy` instead of `YY` (in `{format}`) for formatting years to the input `{date}`',
  D: 'Use `d` instead of `D` (in `{format}`) for formatting days of the month to the input `{date}`',
  DD: 'Use `dd` instead of `DD` (in `{format}`) for formatting days of the month to the input `{date}`',
}

/** `format(date, pattern)` as date-fns prints it, in UTC. */
export function formatDate(date: Date, pattern: string): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value')
  let out = ''
  let i = 0
  while (i < pattern.length) {
    const ch = pattern.charAt(i)
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1)
      if (end === i + 1) {
        out += "'"
        i += 2
        continue
      }
      const quoted = end === -1 ? pattern.slice(i + 1) : pattern.slice(i + 1, end)
      out += quoted.replace(/''/g, "'")
      i = end === -1 ? pattern.length : end + 1
      continue
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch
      i++
      continue
    }
    let j = i
    while (pattern.charAt(j) === ch) j++
    let token = pattern.slice(i, j)
    if (pattern.charAt(j) === 'o' && ch !== 'o') {
      token += 'o'
      j++
    }
    const refused = PROTECTED[token]
    if (refused) throw new RangeError(refused)
    const formatter = FORMATTERS[ch]
    if (!formatter)
      throw new RangeError(`Format string contains an unescaped latin alphabet character \`${ch}\``)
    out += formatter(date, token)
    i = j
  }
  return out
}
