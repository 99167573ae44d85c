import { badRequest } from '../errors.js'
import { jsonHeapBytes } from '../memory/estimate.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments' | 'rules'>
import type { RuleSet } from './rules.js'
import type { Rule } from './rules.schemas.js'

/** All the rules added through the admin API together, as JSON (fault bodies are kept with them). */
export const MAX_RULES_BYTES = 32 * 1024 * 1024

interface Entry {
  json: number
  heap: number
}

/** What each admin rule weighs, by id; scenario rules count with the scenario. */
const ledgers = new WeakMap<RuleSet, Map<string, Entry>>()

/** The admin rules still in the set, with what they weigh; the others (expired, removed) are forgotten. */
function live(rules: RuleSet, ledger: Map<string, Entry>): Entry {
  const ids = new Set(
    rules
      .list()
      .filter((r) => r.source === 'admin')
      .map((r) => r.id)
  )
  const total = { json: 0, heap: 0 }
  for (const [id, entry] of ledger) {
    if (!ids.has(id)) ledger.delete(id)
    else {
      total.json += entry.json
      total.heap += entry.heap
    }
  }
  return total
}

function ledgerOf(state: State): Map<string, Entry> {
  let ledger = ledgers.get(state.rules)
  if (!ledger) {
    const created = new Map<string, Entry>()
    ledgers.set(state.rules, created)
    // Rules leave by themselves (times, sequence): the budget asks again when it runs short.
    state.environments.budget.compute('rules', () => live(state.rules, created).heap)
    ledger = created
  }
  return ledger
}

/**
 * Checks a rule against the total of all rules (400, as the count limit) and against the memory
 * budget (403) before it is added; `keep` then records it under the id it got.
 */
export function admitRule(state: State, rule: Rule) {
  const ledger = ledgerOf(state)
  const entry = { json: Buffer.byteLength(JSON.stringify(rule)), heap: jsonHeapBytes(rule) }
  const total = live(state.rules, ledger)
  if (total.json + entry.json > MAX_RULES_BYTES)
    throw badRequest(
      `Too many rule bytes: the rules added through the admin API hold ${total.json} bytes of JSON and this one ${entry.json}; together they may hold ${MAX_RULES_BYTES} (32 MB). Remove some with DELETE /__admin/rules/:id or DELETE /__admin/rules.`
    )
  state.environments.budget.set('rules', total.heap)
  state.environments.budget.admit(entry.heap, 'this rule')
  return {
    keep(id: string) {
      ledger.set(id, entry)
      state.environments.budget.set('rules', total.heap + entry.heap)
    },
  }
}
