import { expect, test } from 'vitest'
import {
  BoundedCache,
  cacheBytes,
  cacheStats,
  applyCachesSetting,
  releaseCaches,
  setCachesEnabled,
  WeakCache,
} from './cache.js'
import { createMemoryBudget, MB } from './memory/budget.js'

let names = 0
const named = () => `test cache ${++names}`

test('a bounded cache counts its keys in its bytes and stays under its byte bound', () => {
  const cache = new BoundedCache<string, number>(named(), { maxEntries: 1000, maxBytes: 20_000 })
  for (let i = 0; i < 100; i++) cache.set(`${i}:${'q'.repeat(1_000)}`, i)
  const { entries, bytes } = cache.stats()
  expect(bytes).toBeLessThanOrEqual(20_000)
  expect(entries).toBeLessThan(20)
  expect(cache.get(`99:${'q'.repeat(1_000)}`)).toBe(99)
  expect(cache.get(`0:${'q'.repeat(1_000)}`)).toBeUndefined()
})

test('a bounded cache drops the least recently used entry first', () => {
  const cache = new BoundedCache<string, string>(named(), { maxEntries: 2 })
  cache.set('a', 'A')
  cache.set('b', 'B')
  cache.get('a')
  cache.set('c', 'C')
  expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', undefined, 'C'])
})

test('a bounded cache keeps no entry larger than its entry bound', () => {
  const cache = new BoundedCache<string, string>(named(), {
    maxEntries: 10,
    maxBytes: 4_000,
    sizeOf: (value) => value.length,
  })
  expect(cache.set('big', 'x'.repeat(2_000))).toBe('x'.repeat(2_000))
  expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 })
})

test('releasing a scope drops the entries stored for it and no other', () => {
  const cache = new BoundedCache<string, number>(named(), { maxEntries: 10 })
  const store = {}
  cache.set('mine', 1, store)
  cache.set('other', 2, {})
  releaseCaches(store)
  expect([cache.get('mine'), cache.get('other')]).toEqual([undefined, 2])
})

test('the registry reports every cache with its hits, misses and bytes', () => {
  const name = named()
  const cache = new BoundedCache<string, number>(name, { maxEntries: 10 })
  cache.memo('k', () => 1)
  cache.memo('k', () => 2)
  expect(cacheStats().find((c) => c.name === name)).toMatchObject({
    kind: 'bounded',
    entries: 1,
    hits: 1,
    misses: 1,
    hitRate: 0.5,
  })
  expect(cacheBytes()).toBeGreaterThan(0)
})

test('turned off, a cache keeps nothing and answers nothing', () => {
  const bounded = new BoundedCache<string, number>(named(), { maxEntries: 10 })
  const weak = new WeakCache<object, number>(named())
  const key = {}
  bounded.set('k', 1)
  weak.set(key, 1)
  setCachesEnabled(false)
  try {
    expect([bounded.get('k'), weak.get(key)]).toEqual([undefined, undefined])
    bounded.set('k', 2)
    expect(bounded.stats().entries).toBe(0)
  } finally {
    setCachesEnabled(true)
  }
  expect([bounded.get('k'), weak.get(key)]).toEqual([undefined, undefined])
})

test('a cache turned off by name misses every time while the others still hit', () => {
  const offName = named()
  const off = new BoundedCache<string, number>(offName, { maxEntries: 10 })
  const weakOff = new WeakCache<object, number>(named())
  const on = new BoundedCache<string, number>(named(), { maxEntries: 10 })
  const key = {}
  applyCachesSetting(`off:${offName}, ${weakOff.name}`)
  try {
    for (let i = 0; i < 3; i++) {
      off.memo('k', () => i)
      weakOff.memo(key, () => i)
      on.memo('k', () => i)
    }
    expect([off.get('k'), weakOff.get(key), on.get('k')]).toEqual([undefined, undefined, 0])
    expect(off.stats()).toMatchObject({ entries: 0, hits: 0 })
    expect(on.stats()).toMatchObject({ entries: 1, hits: 3 })
  } finally {
    applyCachesSetting('on')
  }
  expect(off.memo('k', () => 7)).toBe(7)
  expect(off.get('k')).toBe(7)
})

test('a cache made after its name was turned off is off too', () => {
  const name = named()
  applyCachesSetting(`off:${name}`)
  try {
    const cache = new BoundedCache<string, number>(name, { maxEntries: 10 })
    cache.set('k', 1)
    expect(cache.get('k')).toBeUndefined()
  } finally {
    applyCachesSetting('on')
  }
})

test('the memory budget empties the caches before it refuses work', () => {
  const budget = createMemoryBudget(16)
  const cache = new BoundedCache<string, string>(named(), {
    maxEntries: 10,
    maxBytes: 64 * MB,
    sizeOf: () => 10 * MB,
  })
  cache.set('held', 'x')
  budget.reclaimable(
    'caches',
    () => cache.stats().bytes,
    () => cache.clear()
  )
  expect(budget.get('caches')).toBeGreaterThan(10 * MB)
  expect(() => budget.admit(10 * MB, 'this request')).not.toThrow()
  expect(cache.stats().entries).toBe(0)
})
