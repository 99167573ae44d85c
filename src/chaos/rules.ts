import { badRequest, httpError, MockRefusal } from '../errors.js'
import { pathMatcher } from '../http/path-pattern.js'
import type { Rng } from '../tenancy/prng.js'
import { sampleDelay } from './delays.js'
import { createRuleIndex, patternKey } from './rule-index.js'
import { RuleSchema, type Outcome, type Rule } from './rules.schemas.js'
import { issueLine } from '../zod-issues.js'

/** What the rule set needs to know about a request; Hono's `c.req` fits. */
export interface RequestFacts {
  readonly method: string
  readonly path: string
  header(name: string): string | undefined
  query(key: string): string | undefined
}

/** The rule that fired for a request: wait `delayMs`, then apply `outcome` (or pass when none). */
export interface Decision {
  ruleId: string
  delayMs: number
  outcome?: Outcome
}

export type RuleSource = 'scenario' | 'admin'

/** A rule the rule set refuses: 409 for a duplicate id, 400 otherwise. */
class RuleSetError extends MockRefusal {
  constructor(
    readonly code: 'invalid' | 'limit' | 'duplicate',
    readonly problems: string[]
  ) {
    super(problems.join('; '))
    this.name = 'RuleSetError'
  }

  answer() {
    if (this.code === 'duplicate') return httpError(409, this.message)
    return badRequest(this.code === 'limit' ? this.message : this.problems)
  }
}

interface LiveRule {
  id: string
  source: RuleSource
  rule: Rule
  seq: number
  methods?: ReadonlySet<string>
  pathKey?: string
  path?: (path: string) => boolean
  apiKey?: string
  query?: [string, string][]
  matched: number
  fired: number
  timesLeft?: number
  step: number
  /** A scenario rule's place in the scenario's list, so a per-key reset can put it back there. */
  position?: number
}

/** Validates and normalises any input (admin body, scenario entry, programmatic call). */
function parseRule(input: unknown): Rule {
  const result = RuleSchema.safeParse(input)
  if (result.success) return result.data
  throw new RuleSetError('invalid', result.error.issues.map(issueLine))
}

let lastSeq = 0

// Compiled once per rule, and filed in the index: a request looks only at the rules filed under
// its method and first segments, and runs their compiled path matchers.
function compile(id: string, source: RuleSource, rule: Rule): LiveRule {
  const { method, path, apiKey, query } = rule.match
  const methods = method === undefined ? undefined : [method].flat().map((m) => m.toUpperCase())
  return {
    id,
    source,
    rule: { ...rule, id },
    seq: ++lastSeq,
    methods: methods && new Set(methods),
    pathKey: patternKey(path),
    path: path === undefined ? undefined : pathMatcher(path),
    apiKey,
    query: query && Object.entries(query),
    matched: 0,
    fired: 0,
    timesLeft: rule.times,
    step: 0,
  }
}

function apiKeyOf(req: RequestFacts): string | undefined {
  const header = req.header('authorization')
  return header?.startsWith('ApiKey ') ? header.slice(7) : undefined
}

/** The rest of the match, for a rule the index found under the request's method and path. */
function matches(live: LiveRule, req: RequestFacts, path: string): boolean {
  if (live.path && !live.path(path)) return false
  if (live.apiKey !== undefined && apiKeyOf(req) !== live.apiKey) return false
  return !live.query || live.query.every(([name, value]) => req.query(name) === value)
}

function view(live: LiveRule) {
  const { after, times, sequence } = live.rule
  const remaining: { times?: number; after?: number; sequence?: number } = {}
  if (times !== undefined) remaining.times = live.timesLeft
  if (after !== undefined) remaining.after = Math.max(0, after - live.matched)
  if (sequence !== undefined) remaining.sequence = sequence.length - live.step
  // id first: the rule holds the same id, and spreading it keeps the key where it is.
  return {
    id: live.id,
    source: live.source,
    ...live.rule,
    matched: live.matched,
    fired: live.fired,
    remaining,
  }
}

export type RuleView = ReturnType<typeof view>

/**
 * The chaos rules and their counters. The most recently added matching rule wins, as with msw's
 * `use()`, which prepends: a test can shadow a scenario's rule without deleting it. A rule that
 * fires alone decides the request (a sequence's `{ pass: true }` sends it to the real route).
 * A rule that only skips this call (`after` not reached, `probability` missed) lets the
 * older rules decide. Probability and delays draw from the seeded `rng` only.
 */
export function createRuleSet({ rng: initialRng, maxRules }: { rng: Rng; maxRules: number }) {
  let rng = initialRng
  let rules: LiveRule[] = []
  const index = createRuleIndex<LiveRule>()
  let lastId = 0

  function keep(live: LiveRule) {
    rules.push(live)
    index.add(live)
  }

  function drop(live: LiveRule) {
    rules.splice(rules.indexOf(live), 1)
    index.remove(live)
  }

  /** The next rule-N that no rule has and no rule about to be added claims. */
  function freshId(claimed: ReadonlySet<string> = new Set()): string {
    const taken = new Set(rules.map((r) => r.id))
    let id: string
    do id = `rule-${++lastId}`
    while (taken.has(id) || claimed.has(id))
    return id
  }

  function checkRoom(rule: Rule, taken: Set<string>, count: number) {
    if (count >= maxRules)
      throw new RuleSetError('limit', [
        `Too many rules: the limit is ${maxRules} (option maxRules). Remove some with DELETE /__admin/rules/:id or DELETE /__admin/rules.`,
      ])
    if (rule.id !== undefined && taken.has(rule.id))
      throw new RuleSetError('duplicate', [
        `A rule with id "${rule.id}" already exists: delete it first or pick another id.`,
      ])
  }

  function fire(live: LiveRule): Decision {
    const { delay, fault, sequence } = live.rule
    live.fired++
    const outcome = sequence ? sequence[live.step++] : fault
    const delayMs = delay === undefined ? 0 : sampleDelay(delay, rng)
    if (live.timesLeft !== undefined) live.timesLeft--
    if (live.timesLeft === 0 || (sequence && live.step >= sequence.length)) drop(live)
    return { ruleId: live.id, delayMs, ...(outcome ? { outcome } : {}) }
  }

  return {
    get size() {
      return rules.length
    },
    /** In the order they are tried: newest first; with a key, only the rules that match just that key. */
    list: (apiKey?: string): RuleView[] =>
      rules
        .filter((r) => apiKey === undefined || r.apiKey === apiKey)
        .map(view)
        .reverse(),
    get: (id: string) => {
      const live = rules.find((r) => r.id === id)
      return live && view(live)
    },
    /** Validates, then adds; throws RuleSetError when invalid, over maxRules, or a duplicate id. */
    add(input: Rule, source: RuleSource = 'admin'): RuleView {
      const rule = parseRule(input)
      checkRoom(rule, new Set(rules.map((r) => r.id)), rules.length)
      const live = compile(rule.id ?? freshId(), source, rule)
      keep(live)
      return view(live)
    },
    remove(id: string): RuleView | undefined {
      const live = rules.find((r) => r.id === id)
      if (!live) return undefined
      drop(live)
      return view(live)
    },
    /** Removes every rule, or only those whose `match.apiKey` is the key; returns how many went. */
    clear(apiKey?: string): number {
      if (apiKey !== undefined) {
        const theirs = rules.filter((r) => r.apiKey === apiKey)
        for (const live of theirs) drop(live)
        return theirs.length
      }
      const count = rules.length
      rules = []
      index.clear()
      return count
    },
    /**
     * A per-key reset: removes the rules that match only this key, then puts back the scenario's
     * rules for it, with fresh counters, in their place among the others. Other keys' rules and
     * the rules that match every key keep their counters.
     */
    resetKey(apiKey: string, scenarioRules: readonly unknown[]): void {
      const own = scenarioRules
        .map((input, position) => ({ rule: parseRule(input), position }))
        .filter(({ rule }) => rule.match.apiKey === apiKey)
      const kept = rules.filter((r) => r.apiKey !== apiKey)
      const taken = new Set(kept.map((r) => r.id))
      const fresh = own.map(({ rule, position }) => {
        const id = rule.id !== undefined && !taken.has(rule.id) ? rule.id : freshId(taken)
        taken.add(id)
        return { ...compile(id, 'scenario', rule), position }
      })
      // Scenario rules are older than every admin rule: they go first, in the scenario's order.
      const order = (r: LiveRule) => (r.source === 'scenario' ? (r.position ?? 0) : Infinity)
      const merged = [...kept, ...fresh].sort((a, b) => order(a) - order(b) || a.seq - b.seq)
      rules = []
      index.clear()
      for (const live of merged) {
        live.seq = ++lastSeq
        keep(live)
      }
    },
    /**
     * Keeps only the scenario's rules, re-created with fresh counters and ids from rule-1. All of
     * them are checked before anything changes: a bad list throws and leaves the set as it was.
     */
    resetTo(scenarioRules: readonly unknown[], reseeded?: Rng): void {
      const parsed = scenarioRules.map((input, i) => {
        try {
          return parseRule(input)
        } catch (error) {
          const problems = (error as RuleSetError).problems.map((p) => `rules[${i}]: ${p}`)
          throw new RuleSetError('invalid', problems)
        }
      })
      const taken = new Set<string>()
      parsed.forEach((rule, i) => {
        checkRoom(rule, taken, i)
        if (rule.id !== undefined) taken.add(rule.id)
      })
      rules = []
      index.clear()
      lastId = 0
      // A reset starts the fault sequence over, as a fresh process with the same seed would.
      if (reseeded) rng = reseeded
      parsed.forEach((rule, position) =>
        keep({ ...compile(rule.id ?? freshId(taken), 'scenario', rule), position })
      )
    },
    /** The hot path: the newest matching rule, its counters moved on; undefined when none fires. */
    decide(req: RequestFacts): Decision | undefined {
      if (rules.length === 0) return undefined
      const path = req.path
      let decision: Decision | undefined
      index.visitNewestFirst(req.method, path, (live) => {
        if (!matches(live, req, path)) return false
        live.matched++
        const { after = 0, probability } = live.rule
        // A rule that lets this call through (not yet past `after`, or its draw missed) leaves
        // it to the older rules, so "10% 503, else 3% reset, else latency" composes.
        if (live.matched <= after) return false
        // A certain rule draws nothing, so adding one does not shift the other rules' draws.
        if (probability !== undefined && probability < 1 && !(rng() < probability)) return false
        decision = fire(live)
        return true
      })
      return decision
    },
  }
}

export type RuleSet = ReturnType<typeof createRuleSet>
