import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { budgetLimit, createMemoryBudget, MB } from './budget.js'
import { jsonHeapBytes, scalarsHeapBytes } from './estimate.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** The heap a value parsed from `text` really takes, collected before and after. */
function measuredHeap(text: string): { value: unknown; bytes: number } {
  gc()
  gc()
  const before = process.memoryUsage().heapUsed
  const value: unknown = JSON.parse(text)
  gc()
  gc()
  return { value, bytes: process.memoryUsage().heapUsed - before }
}

const N = 200_000
const shapes: Record<string, () => string> = {
  'empty objects': () => `[${Array(N).fill('{}').join(',')}]`,
  'empty arrays': () => `[${Array(N).fill('[]').join(',')}]`,
  'distinct short strings': () => JSON.stringify(Array.from({ length: N }, (_, i) => `s${i}`)),
  'objects with many keys': () =>
    JSON.stringify(Object.fromEntries(Array.from({ length: N }, (_, i) => [`k${i}`, i]))),
  'small records': () =>
    JSON.stringify(Array.from({ length: N }, (_, i) => ({ key: `t-${i}`, name: 'x', n: 0.5 }))),
  'one long string': () => JSON.stringify('x'.repeat(8 * MB)),
  'one long string past Latin-1': () => JSON.stringify('€'.repeat(4 * MB)),
}

for (const [shape, make] of Object.entries(shapes))
  test(`the estimate of parsed JSON is not below what it takes on the heap: ${shape}`, () => {
    const { value, bytes } = measuredHeap(make())
    expect(jsonHeapBytes(value)).toBeGreaterThanOrEqual(bytes * 0.95)
  })

test('the estimate counts a shared or cyclic part once and ends', () => {
  const shared = { big: 'x'.repeat(1000) }
  const cyclic: Record<string, unknown> = { a: shared, b: shared }
  cyclic.self = cyclic
  expect(jsonHeapBytes(cyclic)).toBeLessThan(1000 + 1000)
})

test('a list of scalars is estimated as the walk of any JSON value estimates it', () => {
  const values = ['6718c1d0e1a2b3c4d5e6f901', 'Grüße ✓', '', 7, 2 ** 31, 1.5, true, false, null]
  expect(scalarsHeapBytes(values)).toBe(jsonHeapBytes(values))
})

test('the budget is capped below Node’s heap limit, leaving room for a request in flight', () => {
  expect(budgetLimit(512, 4096 * MB)).toEqual({ bytes: 512 * MB, cappedByHeap: false })
  const small = budgetLimit(512, 288 * MB)
  expect(small.cappedByHeap).toBe(true)
  expect(small.bytes).toBeLessThanOrEqual(128 * MB)
})

test('a refusal names the budget, the option that raises it and what holds the memory', () => {
  const budget = createMemoryBudget(64, 4096 * MB)
  budget.set('journal', 60 * MB)
  let message = ''
  try {
    budget.admit(8 * MB, 'this thing')
  } catch (error) {
    message = (error as Error).message
  }
  expect(message).toContain('64 MB')
  expect(message).toContain('--max-memory-mb')
  expect(message).toContain('journal 60 MB')
})

test('a part computed on demand is asked again before anything is refused', () => {
  const budget = createMemoryBudget(64, 4096 * MB)
  let rules = 60 * MB
  budget.compute('rules', () => rules)
  rules = 0
  expect(budget.fits(8 * MB)).toBe(true)
})
