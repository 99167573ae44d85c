import { BoundedCache, cachesEnabled, textBytes } from '../cache.js'

/**
 * What the mock works out from a request body's text, kept once per text: a body sent again (a
 * fixture created in every test) is parsed, validated, estimated and extracted once. One memo
 * per text, so that the text is held once and every part goes with it; the last few dozen texts,
 * none over 16 kB.
 */
export interface TextMemo {
  /** The body parsed and frozen, for routes that never change their body (http/body.ts). */
  parsed?: unknown
  /** Validated bodies, frozen, by route and schema (each generation resolves its own; http/route.ts). */
  readonly validated: Map<string, unknown>
  /** What a create of it keeps, by kind of path (memory/write-budget.ts). */
  readonly estimates: Map<string, number>
  /** Route prefixes it was created under, by store (workflow-model/compact/repeated-bodies.ts). */
  readonly createdIn: WeakMap<object, Set<string>>
  /** Worked out from one of its frozen validated bodies, by that body (workflows/workflow-builder.ts). */
  readonly derived: WeakMap<object, unknown>
  /** The command checks of POST /v2/workflows it passed, by command (workflows-v2.usecases.ts). */
  readonly passed: Set<string>
}

const MAX_MEMO_TEXT = 16 * 1024

const memos = new BoundedCache<string, TextMemo>('body texts', {
  maxEntries: 64,
  maxBytes: 4 * 1024 * 1024,
  // The parsed and validated bodies and what was derived from them: a few times the text.
  sizeOf: (_memo, text) => 4 * textBytes(text),
})

/** The memo of a body's text: undefined when there is none, it is too long, or caches are off. */
export function textMemo(text: string | undefined): TextMemo | undefined {
  if (text === undefined || text.length > MAX_MEMO_TEXT || !cachesEnabled()) return undefined
  const found = memos.get(text)
  if (found) return found
  return memos.set(text, {
    validated: new Map(),
    estimates: new Map(),
    createdIn: new WeakMap(),
    derived: new WeakMap(),
    passed: new Set(),
  })
}
