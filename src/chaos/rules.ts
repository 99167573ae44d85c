import type { Rng } from '../tenancy/prng.js'

/** Placeholder rule set: replaced by the chaos implementation. */
export function createRuleSet(_options: { rng: Rng; maxRules: number }) {
  const rules: unknown[] = []
  return {
    list: () => rules,
    clear: () => void rules.splice(0),
    /** Rules declared by the active scenario survive a reset; added ones do not. */
    resetTo: (scenarioRules: unknown[]) => void rules.splice(0, rules.length, ...scenarioRules),
  }
}

export type RuleSet = ReturnType<typeof createRuleSet>
