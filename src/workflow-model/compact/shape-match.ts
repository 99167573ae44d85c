import { isSlotValue, isValueSlotText, slotOfMarker, type SlotValue } from './compact-workflow.js'

/**
 * A repeated body makes a workflow of a shape the store already has: this finds its values by
 * walking it beside a pattern of that shape, which costs a fraction of marking it, serialising
 * the copy, splitting the text and hashing the frame (workflows.store.ts).
 *
 * It answers only when `markSlots(doc)` would give a frame of the very same text: the walk
 * follows markSlots' copy (own keys in order, arrays by index), every non-slot leaf must be the
 * same value, every slot by position must take a value markSlots would slot there, and the
 * strings slotted by value must fall into the same slots, one distinct string per slot (the
 * same numbering, whatever the walk's order). Anything else, even harmless, answers undefined:
 * the caller then marks the document as before.
 */

/** What a node of the marked document asks of the workflow's node at the same place. */
type Pattern =
  | { readonly kind: 'same'; readonly value: unknown }
  | { readonly kind: 'by-value'; readonly slot: number }
  /** The trigger identifier (a string), or a top-level in-place field (any JSON scalar). */
  | { readonly kind: 'by-position'; readonly slot: number; readonly topLevel: boolean }
  | { readonly kind: 'object'; readonly keys: readonly string[]; readonly members: Pattern[] }
  | { readonly kind: 'array'; readonly items: Pattern[] }

export interface ShapePattern {
  readonly root: Pattern
  readonly valueCount: number
}

/**
 * The pattern of a marked document (markSlots' `marked`, whose shape has these by-value slots),
 * made once per shape. Walks without recursion, as markSlots does.
 */
export function shapePattern(
  marked: Record<string, unknown>,
  plainSlots: ReadonlySet<number>,
  valueCount: number
): ShapePattern {
  const leaf = (value: unknown, topLevel: boolean): Pattern | undefined => {
    if (typeof value === 'string') {
      const slot = slotOfMarker(value)
      if (slot === undefined) return { kind: 'same', value }
      return plainSlots.has(slot)
        ? { kind: 'by-value', slot }
        : { kind: 'by-position', slot, topLevel }
    }
    return value === null || typeof value !== 'object' ? { kind: 'same', value } : undefined
  }
  // [node, pattern] pairs whose members are still to fill in.
  const pending: [object, Pattern[]][] = []
  const node = (value: unknown, topLevel: boolean): Pattern => {
    const found = leaf(value, topLevel)
    if (found) return found
    if (Array.isArray(value)) {
      const items = new Array<Pattern>(value.length)
      pending.push([value, items])
      return { kind: 'array', items }
    }
    const keys = Object.keys(value as object)
    const members = new Array<Pattern>(keys.length)
    pending.push([value as object, members])
    return { kind: 'object', keys, members }
  }
  const keys = Object.keys(marked)
  const root: Pattern = { kind: 'object', keys, members: keys.map((k) => node(marked[k], true)) }
  while (pending.length) {
    const [value, out] = pending.pop() as [object, Pattern[]]
    const items = Array.isArray(value)
      ? value
      : Object.keys(value).map((k) => (value as Record<string, unknown>)[k])
    for (let i = 0; i < items.length; i++) out[i] = node(items[i], false)
  }
  return { root, valueCount }
}

/** The workflow's slot values if it has the pattern's shape (see above), else undefined. */
export function valuesInShape(
  { root, valueCount }: ShapePattern,
  doc: Record<string, unknown>
): SlotValue[] | undefined {
  const values = new Array<SlotValue>(valueCount)
  let filled = 0
  const byValue = new Map<string, number>()
  const plainObjects = !hasEnumerableKey(Object.prototype)
  // [pattern, node] pairs still to compare, flat: a pair per node would be garbage.
  const pending: unknown[] = [root, doc]
  while (pending.length) {
    const sent = pending.pop()
    const want = pending.pop() as Pattern
    switch (want.kind) {
      case 'same':
        // JSON.stringify throws on a bigint: the caller's serialisation must meet it.
        if (want.value !== sent || typeof sent === 'bigint') return undefined
        break
      case 'by-value': {
        if (typeof sent !== 'string') return undefined
        const slot = byValue.get(sent)
        if (slot === undefined) {
          // A string's first place: its slot must be new too, and the string one markSlots slots.
          if (values[want.slot] !== undefined || !isValueSlotText(sent)) return undefined
          byValue.set(sent, want.slot)
          values[want.slot] = sent
          filled++
        } else if (slot !== want.slot) return undefined
        break
      }
      case 'by-position':
        if (want.topLevel ? !isSlotValue(sent) : typeof sent !== 'string') return undefined
        values[want.slot] = sent as SlotValue
        filled++
        break
      case 'array': {
        const { items } = want
        if (!Array.isArray(sent) || sent.length !== items.length) return undefined
        for (let i = 0; i < items.length; i++) pending.push(items[i], sent[i])
        break
      }
      case 'object': {
        if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return undefined
        const { keys, members } = want
        const proto: unknown = Object.getPrototypeOf(sent)
        if (plainObjects && (proto === Object.prototype || proto === null)) {
          // for...in lists the own keys in Object.keys' order, then the prototype's (none
          // here), without the array Object.keys makes.
          let i = 0
          for (const key in sent) {
            if (key !== keys[i]) return undefined
            pending.push(members[i++], (sent as Record<string, unknown>)[key])
          }
          if (i !== keys.length) return undefined
          break
        }
        const sentKeys = Object.keys(sent)
        if (sentKeys.length !== keys.length) return undefined
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string
          if (sentKeys[i] !== key) return undefined
          pending.push(members[i], (sent as Record<string, unknown>)[key])
        }
      }
    }
  }
  return filled === valueCount ? values : undefined
}

/** Whether an object has an enumerable key of its own or inherited (Object.prototype has none, unless polluted). */
function hasEnumerableKey(object: object) {
  for (const _ in object) return true
  return false
}
