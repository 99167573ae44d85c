/**
 * Chaos rules filed by method and by the first two path segments their pattern fixes
 * (`/v1/topics`), so that a request looks only at the rules that could match it: a thousand
 * rules on other routes cost it nothing. A rule with no method, or whose pattern does not fix
 * those segments, is filed under "any" and looked at by every request.
 */

/** What the index needs of a rule. */
export interface IndexedRule {
  /** Order of addition: the index hands rules out newest first. */
  readonly seq: number
  /** Upper case; undefined for every method. */
  readonly methods?: ReadonlySet<string>
  readonly pathKey?: string
}

/** The path up to its second segment's end: `/v1/topics/x/status` gives `/v1/topics`. */
export function leadingSegments(path: string): string {
  const first = path.indexOf('/', 1)
  const second = first === -1 ? -1 : path.indexOf('/', first + 1)
  return second === -1 ? path : path.slice(0, second)
}

/**
 * The key of every path a pattern can match, or undefined when they do not share one: the
 * leading segments count only when they hold no `*` and no `:name`.
 */
export function patternKey(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined
  const key = leadingSegments(pattern)
  return /\*|(^|\/):/.test(key) ? undefined : key
}

interface Shelf<T> {
  byKey: Map<string, T[]>
  anyPath: T[]
}

const ANY_METHOD = ''

export function createRuleIndex<T extends IndexedRule>() {
  let shelves = new Map<string, Shelf<T>>()

  function listsOf(rule: T): T[][] {
    const methods = rule.methods ? [...rule.methods] : [ANY_METHOD]
    return methods.map((method) => {
      let shelf = shelves.get(method)
      if (!shelf) shelves.set(method, (shelf = { byKey: new Map(), anyPath: [] }))
      if (rule.pathKey === undefined) return shelf.anyPath
      let list = shelf.byKey.get(rule.pathKey)
      if (!list) shelf.byKey.set(rule.pathKey, (list = []))
      return list
    })
  }

  function candidates(method: string, path: string): T[][] {
    const key = leadingSegments(path)
    const lists: T[][] = []
    for (const name of [method, ANY_METHOD]) {
      const shelf = shelves.get(name)
      if (!shelf) continue
      const byKey = shelf.byKey.get(key)
      if (byKey?.length) lists.push(byKey)
      if (shelf.anyPath.length) lists.push(shelf.anyPath)
    }
    return lists
  }

  return {
    /** Rules are added in `seq` order, so every list stays sorted oldest first. */
    add(rule: T) {
      for (const list of listsOf(rule)) list.push(rule)
    },
    remove(rule: T) {
      for (const list of listsOf(rule)) {
        const at = list.indexOf(rule)
        if (at !== -1) list.splice(at, 1)
      }
    },
    clear() {
      shelves = new Map()
    },
    /**
     * Hands the rules that may match a request to `visit`, newest first, until it returns true.
     * `visit` may remove the rule it returns true for.
     */
    visitNewestFirst(method: string, path: string, visit: (rule: T) => boolean): void {
      const lists = candidates(method, path)
      const next = lists.map((list) => list.length - 1)
      for (;;) {
        let best = -1
        let bestSeq = -Infinity
        for (let i = 0; i < lists.length; i++) {
          const rule = (lists[i] as T[])[next[i] as number]
          if (rule && rule.seq > bestSeq) [best, bestSeq] = [i, rule.seq]
        }
        if (best === -1) return
        const rule = (lists[best] as T[])[next[best] as number] as T
        next[best] = (next[best] as number) - 1
        if (visit(rule)) return
      }
    },
  }
}
