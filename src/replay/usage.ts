/**
 * The replay subcommand's options, as both `novu-mock --help` and `novu-mock replay --help` show
 * them. No imports: the start-up help must not load the replay code.
 */
const REPLAY_OPTIONS: readonly { flag: string; help: string }[] = [
  {
    flag: '--target URL',
    help: 'base URL to replay against (required), e.g. http://127.0.0.1:4000',
  },
  {
    flag: '--api-key KEY',
    help: 'sent as "Authorization: ApiKey KEY"; overrides the script\'s apiKey',
  },
  { flag: '--admin-token TOKEN', help: 'sent as "Authorization: Bearer TOKEN" on admin steps' },
  {
    flag: '--skip-admin',
    help: 'skip admin steps (and mockOnly steps): the real service has no /__admin API',
  },
  { flag: '--report json', help: 'print the JSON report instead of one line per step' },
  { flag: '--report-file FILE', help: 'write the JSON report to FILE' },
]

/** The replay flags by name, for "did you mean" hints. */
export const REPLAY_FLAG_NAMES = [
  'target',
  'api-key',
  'admin-token',
  'skip-admin',
  'report',
  'report-file',
  'help',
]

/** The option rows, indented and aligned as in both help texts. */
export const replayOptionRows = (width = 21) =>
  REPLAY_OPTIONS.map(({ flag, help }) => `  ${flag.padEnd(width)}${help}`)

/** Edit distance with swapped neighbours counting once (`prot` is one edit from `port`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  const at = (i: number, j: number) => (d[i] as number[])[j] as number
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1)
      ;(d[i] as number[])[j] = best
    }
  return at(a.length, b.length)
}

/**
 * `unknown option --prot; did you mean --port?` for the first argument that is no known flag, or
 * undefined when every one is known (the parser's own message then says what is wrong).
 */
export function unknownFlagMessage(argv: string[], known: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined
    const match = /^--([^=]+)/.exec(arg)
    if (!match) continue
    const name = match[1] as string
    if (known.includes(name)) continue
    const best = known
      .map((flag) => ({ flag, d: distance(name.toLowerCase(), flag) }))
      .sort((x, y) => x.d - y.d)[0]
    const close =
      best && (best.d <= Math.max(1, Math.floor(name.length / 3)) || best.flag.startsWith(name))
    return `unknown option --${name}${close ? `; did you mean --${best.flag}?` : ''}`
  }
  return undefined
}
