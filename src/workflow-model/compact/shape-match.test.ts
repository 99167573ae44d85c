// valuesInShape must answer exactly what marking the workflow would give, or nothing: these
// compare it with markSlots and frameOf on documents that differ from a shape in every way
// a slot can (fresh ids, shared ids, scalars, keys, key order).
import { expect, test } from 'vitest'
import { shapePattern, valuesInShape } from './shape-match.js'
import { markSlots, frameOf } from './compact-workflow.js'

type Doc = Record<string, unknown>
const hex = (n: number) => n.toString(16).padStart(24, '0')

const workflow = (n: number, extra: Doc = {}): Doc => ({
  _id: hex(n),
  name: 'Order shipped',
  active: false,
  draft: true,
  _notificationGroupId: 'a'.repeat(24),
  triggers: [{ type: 'event', identifier: `order-shipped-${n}`, variables: [], _id: hex(n + 1) }],
  steps: [
    { _id: hex(n + 2), template: { _id: hex(n + 2), content: 'Hi {{name}}', cta: { data: {} } } },
    { _id: hex(n + 3), _parentId: hex(n + 2), template: { _id: hex(n + 3), content: ['x', null] } },
  ],
  ...extra,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
})

function patternOf(doc: Doc) {
  const slotted = markSlots(doc)
  return shapePattern(slotted.marked as Doc, slotted.plainSlots, slotted.values.length)
}
const frameText = (doc: Doc) => {
  const { parts, slots } = frameOf(markSlots(doc).marked, markSlots(doc))
  return JSON.stringify([parts, slots])
}

test('finds the values markSlots gives a workflow of the same shape', () => {
  const pattern = patternOf(workflow(100))
  const again = workflow(200)
  expect(valuesInShape(pattern, again)).toEqual(markSlots(again).values)
  expect(frameText(again)).toBe(frameText(workflow(100)))
})

test('answers nothing when the frame would differ', () => {
  const pattern = patternOf(workflow(100))
  const unlike: Doc[] = [
    // One id shared by two places, where the shape has two distinct ones.
    workflow(200, { steps: [{ _id: hex(5) }, { _id: hex(5) }] }),
    workflow(200, { name: { text: 'x' } }),
    workflow(200, { extra: 1 }),
    { ...workflow(200), _notificationGroupId: 'not an id' },
    { ...workflow(200), triggers: [{ ...(workflow(200).triggers as Doc[])[0], identifier: 7 }] },
    Object.fromEntries(Object.entries(workflow(200)).reverse()),
  ]
  for (const doc of unlike) {
    expect(frameText(doc)).not.toBe(frameText(workflow(100)))
    expect(valuesInShape(pattern, doc)).toBeUndefined()
  }
})

test('answers nothing for an own __proto__ key, which markSlots cannot copy as a key', () => {
  const text = JSON.stringify(workflow(200)).replace('"cta":{', '"cta":{"__proto__":{},')
  expect(valuesInShape(patternOf(workflow(100)), JSON.parse(text))).toBeUndefined()
})

test('a shape whose ids repeat takes only workflows whose ids repeat the same way', () => {
  const shared = (a: string, b: string) => workflow(100, { data: { a, b, c: a } })
  const pattern = patternOf(shared(hex(7), hex(8)))
  expect(valuesInShape(pattern, shared(hex(9), hex(10)))).toEqual(
    markSlots(shared(hex(9), hex(10))).values
  )
  expect(valuesInShape(pattern, shared(hex(9), hex(9)))).toBeUndefined()
  expect(valuesInShape(pattern, workflow(100, { data: { a: hex(1), b: hex(2), c: hex(3) } }))).toBe(
    undefined
  )
})

test('an in-place field takes any scalar, as markSlots slots it', () => {
  const pattern = patternOf(workflow(100))
  const doc = { ...workflow(200), name: 42, active: null }
  expect(valuesInShape(pattern, doc)).toEqual(markSlots(doc).values)
})
