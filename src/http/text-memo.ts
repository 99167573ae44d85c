import { BoundedCache, cachesEnabled } from '../cache.js'
import { deepFreeze } from '../objects.js'

/**
 * What the mock works out from a request body's text, kept once per text: a body sent again (a
 * fixture created in every test) is parsed, validated, estimated and extracted once. One memo
 * per text, so that the text is held once and every part goes with it; the last few dozen texts,
 * none over 16 kB.
 *
 * A text sent once (a client creating many workflows) holds no parse and no validation: those are
 * kept, frozen, from the second time the text is parsed or validated on, and each collection is
 * made when first used. A first sight costs the entry, its note of where the text was created
 * (which makes the second create compact) and its estimate.
 */
export class TextMemo {
  private parses = 0
  private parsedValue: unknown = undefined
  private validations = 0
  private validatedValues: Map<object, unknown> | undefined = undefined
  private workflowsEstimate: number | undefined = undefined
  private othersEstimate: number | undefined = undefined
  private createdInStores: WeakMap<object, Set<string>> | undefined = undefined
  private derivedValues: WeakMap<object, unknown> | undefined = undefined
  private passedChecks: Set<string> | undefined = undefined

  /** The body parsed, for routes that never change their body (http/body.ts); frozen once kept. */
  parsed(parse: () => unknown): unknown {
    if (this.parsedValue !== undefined) return this.parsedValue
    const value = parse()
    if (this.parses++ === 0) return value
    return (this.parsedValue = deepFreeze(value))
  }

  /**
   * The body validated, by route and schema (`partOf` both; each generation resolves its own;
   * http/route-input.ts); frozen once kept.
   */
  validated(by: object, validate: () => unknown): unknown {
    const found = this.validatedValues?.get(by)
    if (found !== undefined) return found
    const value = validate()
    if (this.validations++ === 0) return value
    const frozen = deepFreeze(value)
    ;(this.validatedValues ??= new Map()).set(by, frozen)
    return frozen
  }

  /** What a create of it keeps, on a workflow path or another (memory/write-budget.ts). */
  estimate(onWorkflowPath: boolean, make: () => number): number {
    if (onWorkflowPath) return (this.workflowsEstimate ??= make())
    return (this.othersEstimate ??= make())
  }

  /** Route prefixes it was created under, by store (workflow-model/compact/repeated-bodies.ts). */
  get createdIn(): WeakMap<object, Set<string>> {
    return (this.createdInStores ??= new WeakMap())
  }

  /** Worked out from one of its frozen validated bodies, by that body (workflows/workflow-builder.ts). */
  get derived(): WeakMap<object, unknown> {
    return (this.derivedValues ??= new WeakMap())
  }

  /** The command checks of POST /v2/workflows it passed, by command (workflows-v2.usecases.ts). */
  get passed(): Set<string> {
    return (this.passedChecks ??= new Set())
  }
}

const MAX_MEMO_TEXT = 16 * 1024

const memos = new BoundedCache<string, TextMemo>('body texts', {
  maxEntries: 64,
  maxBytes: 4 * 1024 * 1024,
  // The parsed and validated bodies and what was derived from them: a few times the text.
  sizeOf: (_memo, _text, keyBytes) => 4 * keyBytes,
})

/** The memo of a body's text: undefined when there is none, it is too long, or caches are off. */
export function textMemo(text: string | undefined): TextMemo | undefined {
  if (text === undefined || text.length > MAX_MEMO_TEXT || !cachesEnabled()) return undefined
  return memos.get(text) ?? memos.set(text, new TextMemo())
}
