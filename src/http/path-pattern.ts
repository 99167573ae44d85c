import { BoundedCache } from '../cache.js'
/**
 * Path patterns for chaos rules and journal filters: `:name` stands for one path segment, `*`
 * for any text (slashes included), everything else is literal.
 *
 * A pattern is compiled once into its runs (the text between two `*`), each cut at its slashes.
 * The first run must open the path, the last must end it, and each middle run is taken at its
 * earliest place, which is always right when `*` can swallow anything in between. A `:name` is a
 * whole segment, so the pieces of a run line up with whole path segments: a middle run is found
 * in one pass over the segments, its candidate places kept as bits of one number. Matching is
 * linear in the path whatever the pattern; `patternProblem` bounds what a pattern may hold.
 */

/** Checked where a pattern is accepted (chaos rules, journal filters). */
export const MAX_PATTERN_LENGTH = 1024
/** Also what keeps a run's candidate places within the bits of one number. */
export const MAX_PATTERN_SEGMENTS = 16
export const MAX_PATTERN_WILDCARDS = 16

/** Why a pattern is refused, naming the limit, or undefined when it is fine. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `a path pattern is at most ${MAX_PATTERN_LENGTH} characters (this one has ${pattern.length})`
  const slashes = pattern.split('/').length - 1
  if (slashes > MAX_PATTERN_SEGMENTS)
    return `a path pattern has at most ${MAX_PATTERN_SEGMENTS} segments, counted by "/" (this one has ${slashes})`
  const stars = pattern.split('*').length - 1
  if (stars > MAX_PATTERN_WILDCARDS)
    return `a path pattern has at most ${MAX_PATTERN_WILDCARDS} wildcards (*) (this one has ${stars})`
  return undefined
}

/**
 * Characters of path the matchers have read, every pattern together. A cheap count that lets the
 * tests hold matching linear in the path by its work, where a clock would flake on a busy machine.
 */
let charsRead = 0
export const pathMatchingWork = () => charsRead
/**
 * The linear bound on that count, a path's length times this: each character is read by the
 * first and last runs and by the finders between, and again where one finder starts in the
 * segment the last one ended in. Backtracking would read it again for every place a `*` could take.
 */
export const MAX_READS_PER_CHARACTER = 4

/** A `:name` segment; any other piece is literal text. */
const PARAM = null
type Piece = string | typeof PARAM
/** The pieces between two slashes; a run has one more piece than slashes. */
type Run = Piece[]

function splitRuns(pattern: string): Run[] {
  const runs: Run[] = [['']]
  const lastRun = () => runs[runs.length - 1] as Run
  pattern.split('/').forEach((part, index) => {
    if (index > 0) lastRun().push('')
    const run = lastRun()
    // A part that opens with ":" is a parameter whole, stars and all, as it always was.
    if (part.startsWith(':')) {
      run[run.length - 1] = PARAM
      return
    }
    const [head, ...afterStars] = part.split('*')
    run[run.length - 1] += head as string
    for (const text of afterStars) {
      const current = lastRun()
      // `**` is one `*`: an empty run between two stars is reused, not added.
      const empty = runs.length > 1 && current.length === 1 && current[0] === ''
      if (!empty) runs.push([''])
      lastRun()[0] = text
    }
  })
  return runs
}

/** A path cut at its slashes; segment 0 is the (empty) text before the first slash. */
class Segments {
  readonly parts: string[]
  readonly starts: number[]
  constructor(readonly path: string) {
    this.parts = path.split('/')
    this.starts = []
    let at = 0
    for (const part of this.parts) {
      this.starts.push(at)
      at += part.length + 1
    }
  }
  get count() {
    return this.parts.length
  }
  /** Segment i, counted as read. */
  part(i: number) {
    const part = this.parts[i] as string
    charsRead += part.length + 1
    return part
  }
  start(i: number) {
    return this.starts[i] as number
  }
  end(i: number) {
    return this.start(i) + (this.parts[i] as string).length
  }
  /** The whole segment: this text, or any non-empty text for a `:name`. */
  is(i: number, piece: Piece) {
    return piece === PARAM ? this.part(i).length > 0 : this.part(i) === piece
  }
}

// One request is matched against every chaos rule: the last path's segments are kept, so that
// the path is cut once, not once per rule.
const lastSegments = new BoundedCache<string, Segments>('path segments', { maxEntries: 1 })
const segmentsOf = (path: string): Segments => lastSegments.memo(path, () => new Segments(path))

// Only the first run can open with a `:name` and only the last can close with one: a `:name` sits
// between slashes, so the edges that touch a `*` are always text.
const text = (piece: Piece | undefined) => piece as string

interface Found {
  /** Where the run ends in the path, and the segment holding that end. */
  end: number
  segment: number
}

/** A middle run: where does it first fit at or after `from` (in `segment`), ending by `limit`? */
type Finder = (path: Segments, from: number, segment: number, limit: number) => Found | undefined

/** A run with no slash sits inside one segment: a plain substring search. */
function textFinder(needle: string): Finder {
  return (path, from, segment, limit) => {
    const at = path.path.indexOf(needle, from)
    const end = at + needle.length
    charsRead += (at === -1 ? path.path.length : end) - from
    if (at === -1 || end > limit) return undefined
    while (segment + 1 < path.count && path.start(segment + 1) <= end) segment++
    return { end, segment }
  }
}

/**
 * A run across slashes: its first piece ends a segment, its last opens one, and each piece
 * between is a whole segment. Bit t of `alive` says that the segments read so far end with the
 * run's first t + 1 pieces (a shift-and search), so each segment is read once.
 */
function segmentFinder(run: Run): Finder {
  const last = run.length - 1
  const head = text(run[0])
  const tail = text(run[last])
  const wholeBits = new Map<string, number>()
  let paramBits = 0
  for (let t = 1; t < last; t++) {
    const piece = run[t] as Piece
    if (piece === PARAM) paramBits |= 1 << t
    else wholeBits.set(piece, (wholeBits.get(piece) ?? 0) | (1 << t))
  }
  const done = 1 << last
  return (path, from, segment, limit) => {
    let alive = 0
    for (let i = segment; i < path.count; i++) {
      const part = path.part(i)
      let fits = wholeBits.get(part) ?? 0
      if (part.length > 0) fits |= paramBits
      if (part.startsWith(tail)) fits |= done
      if (part.endsWith(head) && path.end(i) - head.length >= from) fits |= 1
      alive = ((alive << 1) | 1) & fits
      if (alive & done) {
        // The earliest end found: any later place ends later still.
        const end = path.start(i) + tail.length
        return end <= limit ? { end, segment: i } : undefined
      }
    }
    return undefined
  }
}

interface Compiled {
  first: Run
  last: Run
  middle: Finder[]
}

function compile(pattern: string): Compiled | Run {
  const runs = splitRuns(pattern)
  if (runs.length === 1) return runs[0] as Run
  return {
    first: runs[0] as Run,
    last: runs[runs.length - 1] as Run,
    middle: runs
      .slice(1, -1)
      .map((run) => (run.length === 1 ? textFinder(text(run[0])) : segmentFinder(run))),
  }
}

function matchesWhole(run: Run, path: Segments): boolean {
  return run.length === path.count && run.every((piece, i) => path.is(i, piece))
}

function matchesRuns({ first, last, middle }: Compiled, path: Segments): boolean {
  // The first run opens the path.
  const firstEnd = first.length - 1
  if (firstEnd >= path.count) return false
  for (let i = 0; i < firstEnd; i++) if (!path.is(i, first[i] as Piece)) return false
  if (!path.part(firstEnd).startsWith(text(first[firstEnd]))) return false
  let from = path.start(firstEnd) + text(first[firstEnd]).length
  let segment = firstEnd
  // The last run ends it.
  const lastStart = path.count - last.length
  if (lastStart < 0) return false
  for (let i = 1; i < last.length; i++) if (!path.is(lastStart + i, last[i] as Piece)) return false
  if (!path.part(lastStart).endsWith(text(last[0]))) return false
  const limit = path.end(lastStart) - text(last[0]).length
  if (from > limit) return false
  // Each middle run at its earliest place between the two.
  for (const find of middle) {
    const found = find(path, from, segment, limit)
    if (!found) return false
    ;({ end: from, segment } = found)
  }
  return true
}

/**
 * A matcher for one pattern, compiled once; call it for each path. Throws a RangeError for a
 * pattern beyond the limits (`patternProblem`), which the routes refuse before they get here.
 */
export function pathMatcher(pattern: string): (path: string) => boolean {
  if (!/[:*]/.test(pattern)) return (path) => path === pattern
  const problem = patternProblem(pattern)
  if (problem) throw new RangeError(problem)
  const compiled = compile(pattern)
  // The text before the first : or * must open the path: a cheap no for most chaos rules.
  const prefix = pattern.slice(0, pattern.search(/[:*]/))
  const matches = Array.isArray(compiled)
    ? (path: string) => matchesWhole(compiled, segmentsOf(path))
    : (path: string) => matchesRuns(compiled, segmentsOf(path))
  return (path) => path.startsWith(prefix) && matches(path)
}
