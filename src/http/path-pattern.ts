/**
 * Path patterns for chaos rules and journal filters: `:name` stands for one path segment, `*`
 * for any text (slashes included), everything else is literal. Matching runs as a small
 * automaton over the path, in time proportional to path length times pattern length, so no
 * pattern (`/*a*a*a*a*x`, say) can stall the server the way a backtracking regex would.
 */
const LITERAL = 0
const ANY = 1
const ONE_IN_SEGMENT = 2
const MANY_IN_SEGMENT = 3

type Token = { kind: number; char: number }

function compile(pattern: string): Token[] {
  const tokens: Token[] = []
  pattern.split('/').forEach((part, index) => {
    if (index > 0) tokens.push({ kind: LITERAL, char: 47 })
    if (part.startsWith(':')) {
      tokens.push({ kind: ONE_IN_SEGMENT, char: 0 }, { kind: MANY_IN_SEGMENT, char: 0 })
      return
    }
    for (const char of part) {
      if (char === '*') {
        if (tokens.at(-1)?.kind !== ANY) tokens.push({ kind: ANY, char: 0 })
      } else {
        for (let i = 0; i < char.length; i++)
          tokens.push({ kind: LITERAL, char: char.charCodeAt(i) })
      }
    }
  })
  return tokens
}

/** States reachable without reading a character: past any `*` and `:name` tail that may match nothing. */
function close(states: Uint8Array, tokens: Token[]) {
  for (let s = 0; s < tokens.length; s++) {
    const kind = (tokens[s] as Token).kind
    if (states[s] && (kind === ANY || kind === MANY_IN_SEGMENT)) states[s + 1] = 1
  }
}

export function pathMatcher(pattern: string): (path: string) => boolean {
  if (!/[:*]/.test(pattern)) return (path) => path === pattern
  const tokens = compile(pattern)
  // The text before the first : or * must open the path: a cheap no for most chaos rules.
  const prefix = pattern.slice(0, pattern.search(/[:*]/))
  return (path) => {
    if (!path.startsWith(prefix)) return false
    let current = new Uint8Array(tokens.length + 1)
    let next = new Uint8Array(tokens.length + 1)
    current[0] = 1
    close(current, tokens)
    for (let i = 0; i < path.length; i++) {
      const char = path.charCodeAt(i)
      next.fill(0)
      let alive = false
      for (let s = 0; s < tokens.length; s++) {
        if (!current[s]) continue
        const token = tokens[s] as Token
        if (token.kind === LITERAL ? token.char === char : token.kind === ANY) {
          next[token.kind === ANY ? s : s + 1] = 1
          alive = true
        } else if (char !== 47 && token.kind !== LITERAL) {
          next[token.kind === ONE_IN_SEGMENT ? s + 1 : s] = 1
          alive = true
        }
      }
      if (!alive) return false
      close(next, tokens)
      ;[current, next] = [next, current]
    }
    return current[tokens.length] === 1
  }
}
