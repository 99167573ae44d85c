import { randomBytes } from 'node:crypto'
import { setOwn } from '../../objects.js'

/**
 * A stored workflow as a JSON frame (its text with holes) and its own values. The frame is the document's JSON
 * with holes ("slots") where its ids, its timestamps, its trigger identifier and the fields a
 * write changes in place (name, active, draft, status, updatedAt, deleted) go; the values fill
 * them. Workflows that differ only in those values (the same body created again, as test suites
 * do) share one frame: a stored workflow then costs its values, not a tree of objects, and
 * V8's collector has one array of strings to trace instead of a few hundred objects.
 *
 * Splitting is lossless for any document: a slot gives back the exact value it took out, so
 * `fill(frame, values)` is the JSON.stringify of the document, byte for byte.
 */

/**
 * JSON text between the slots, the value index each slot takes, and whether that value is known
 * to need no escaping (an id or a timestamp).
 */
export interface Frame {
  readonly parts: readonly string[]
  readonly slots: readonly number[]
  readonly plain: readonly boolean[]
  /** The length of the text it was split from: about what it keeps. */
  readonly size: number
}

/** A value a slot holds: what the document had there. */
export type SlotValue = string | number | boolean | null

const encoded = (value: SlotValue, plain: boolean | undefined) =>
  plain ? `"${value as string}"` : JSON.stringify(value)

/**
 * The frame with every slot filled but those `open` names: a frame of one document, whose
 * few changing fields are all that is left to fill.
 */
export function partialFill(
  frame: Frame,
  values: readonly SlotValue[],
  open: ReadonlySet<number>
): Frame {
  const parts: string[] = []
  const slots: number[] = []
  const plain: boolean[] = []
  let pieces: string[] = [frame.parts[0] as string]
  frame.slots.forEach((slot, i) => {
    if (open.has(slot)) {
      parts.push(pieces.join(''))
      slots.push(slot)
      plain.push(frame.plain[i] as boolean)
      pieces = []
    } else pieces.push(encoded(values[slot] as SlotValue, frame.plain[i]))
    pieces.push(frame.parts[i + 1] as string)
  })
  parts.push(pieces.join(''))
  return { parts, slots, plain, size: frame.size }
}

/** The document of a frame with its values put back: the JSON text. */
export function fill(frame: Frame, values: readonly SlotValue[]): string {
  const { parts, slots, plain } = frame
  // Joined once, flat: grown piece by piece, the text would be a chain of cons strings.
  const pieces = new Array<string>(parts.length + slots.length)
  pieces[0] = parts[0] as string
  for (let i = 0; i < slots.length; i++) {
    const value = values[slots[i] as number] as SlotValue
    pieces[2 * i + 1] = encoded(value, plain[i])
    pieces[2 * i + 2] = parts[i + 1] as string
  }
  return pieces.join('')
}

// A slot is written into the JSON as a string no client can send: control characters and a
// random nonce, which JSON.stringify escapes into a token no other value can produce.
const NONCE = randomBytes(8).toString('hex')
const MARKER_HEAD = `\u0001${NONCE}`
const marker = (index: number) => `${MARKER_HEAD}${index}\u0001`
/** The marker of slot `index`, to put in a document whose JSON becomes a frame. */
export const slotMarker = marker

/** The slot index a marker stands for, or undefined for any other string. */
export function slotOfMarker(text: string): number | undefined {
  // Most strings fail on their first character: no client string starts with \u0001 and the nonce.
  if (text.charCodeAt(0) !== 1 || !text.startsWith(MARKER_HEAD) || !text.endsWith('\u0001'))
    return undefined
  const digits = text.slice(MARKER_HEAD.length, -1)
  return /^\d+$/.test(digits) ? Number(digits) : undefined
}

/**
 * The document of a frame with a marker in each slot: what a render of it gives, serialised,
 * is the frame of that render on the same values (see `frameOf`). A render given this may
 * copy, move and drop values, never test them: a marker is not the value it stands for.
 */
export function markedDocument(frame: Frame): unknown {
  const { parts, slots } = frame
  let text = parts[0] as string
  for (let i = 0; i < slots.length; i++)
    text += JSON.stringify(marker(slots[i] as number)) + (parts[i + 1] as string)
  return JSON.parse(text)
}
const TOKEN = new RegExp(`"\\\\u0001${NONCE}(\\d+)\\\\u0001"`, 'g')

/** The frame of a JSON text whose slots were written as markers. */
function split(text: string, plainSlots: ReadonlySet<number>): Frame {
  const parts: string[] = []
  const slots: number[] = []
  const plain: boolean[] = []
  let at = 0
  for (const match of text.matchAll(TOKEN)) {
    parts.push(text.slice(at, match.index))
    const index = Number(match[1])
    slots.push(index)
    plain.push(plainSlots.has(index))
    at = (match.index as number) + match[0].length
  }
  parts.push(text.slice(at))
  // Slices of the text: together they keep it alive, which costs what copies would.
  return { parts, slots, plain, size: text.length }
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The top-level fields that writes change in place: each has a slot of its own. */
const IN_PLACE_FIELDS = [
  '_id',
  'name',
  'active',
  'draft',
  'status',
  'createdAt',
  'updatedAt',
  'deleted',
] as const
type InPlaceField = (typeof IN_PLACE_FIELDS)[number]
const IN_PLACE = new Set<string>(IN_PLACE_FIELDS)

/** Whether a string (anywhere in a document) takes a slot by value: an ObjectId or an ISO timestamp. */
export const isValueSlotText = (text: string) =>
  // Both patterns are 24 characters long: most strings need no regex at all.
  text.length === 24 && (isLowerHex(text) || TIMESTAMP.test(text))

/** /^[0-9a-f]*$/ by hand (the length is checked first): a document holds dozens of ids, a regex call costs more. */
function isLowerHex(text: string) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false
  }
  return true
}

/** Slot values that are JSON scalars; anything else stays in the frame. */
export const isSlotValue = (value: unknown): value is SlotValue =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value)

/** Where a document's slots are: its in-place fields and identifier by position, ids and timestamps by value. */
export interface Slotted {
  /** The document with markers in its slots, to serialise (or render, then serialise). */
  readonly marked: unknown
  readonly values: SlotValue[]
  /** The slots taken by value: ids and timestamps, written without escaping. */
  readonly plainSlots: ReadonlySet<number>
  /** Slot index of each in-place field the document has. */
  readonly fields: Partial<Record<InPlaceField, number>>
  /** Slot index of the trigger identifier, if the document has one. */
  readonly identifier?: number
}

/**
 * Marks a workflow document's slots: the in-place fields and `triggers[0].identifier` by
 * position (each its own slot), then every string that is an ObjectId or an ISO timestamp,
 * wherever it is, by value (one slot per distinct value). Walks without recursion.
 */
export function markSlots(doc: Record<string, unknown>): Slotted {
  const values: SlotValue[] = []
  const byValue = new Map<string, number>()
  const plainSlots = new Set<number>()
  const fields: Partial<Record<InPlaceField, number>> = {}
  const slot = (value: SlotValue) => values.push(value) - 1
  const valueSlot = (text: string) => {
    let index = byValue.get(text)
    if (index === undefined) {
      byValue.set(text, (index = slot(text)))
      plainSlots.add(index)
    }
    return marker(index)
  }
  /** A copy with markers, built as the walk goes: [source, copy] pairs still to visit. */
  const copy = (value: unknown): unknown => {
    if (typeof value === 'string') return isValueSlotText(value) ? valueSlot(value) : value
    if (value === null || typeof value !== 'object') return value
    const out: unknown = Array.isArray(value) ? new Array(value.length) : {}
    pending.push([value as Record<string, unknown>, out as Record<string, unknown>])
    return out
  }
  const pending: [Record<string, unknown>, Record<string, unknown>][] = []

  const marked: Record<string, unknown> = {}
  let identifier: number | undefined
  for (const key of Object.keys(doc)) {
    const value = doc[key]
    if (IN_PLACE.has(key) && isSlotValue(value)) {
      const index = slot(value)
      fields[key as InPlaceField] = index
      marked[key] = marker(index)
    } else if (key === 'triggers' && Array.isArray(value)) {
      const triggers = value.map((trigger, i) => {
        if (i !== 0 || trigger === null || typeof trigger !== 'object' || Array.isArray(trigger))
          return copy(trigger)
        const out: Record<string, unknown> = {}
        for (const [name, inner] of Object.entries(trigger as Record<string, unknown>)) {
          if (name === 'identifier' && typeof inner === 'string') {
            identifier = slot(inner)
            out[name] = marker(identifier)
          } else out[name] = copy(inner)
        }
        return out
      })
      marked[key] = triggers
    } else marked[key] = copy(value)
  }
  while (pending.length) {
    const [source, out] = pending.pop() as [Record<string, unknown>, Record<string, unknown>]
    if (Array.isArray(source)) source.forEach((v, i) => (out[i] = copy(v)))
    else for (const key of Object.keys(source)) setOwn(out, key, copy(source[key]))
  }
  return {
    marked,
    values,
    plainSlots,
    fields,
    ...(identifier !== undefined ? { identifier } : {}),
  }
}

/** The frame of a marked document's JSON (or of what a render of it gives). */
export const frameOf = (marked: unknown, slotted: Pick<Slotted, 'plainSlots'>): Frame =>
  split(JSON.stringify(marked), slotted.plainSlots)
