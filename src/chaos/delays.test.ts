import { expect, test } from 'vitest'
import { createRng } from '../tenancy/prng.js'
import { sampleDelay } from './delays.js'
import type { Delay } from './rules.schemas.js'

const samples = (delay: Delay, seed = 'delays', n = 2000) => {
  const rng = createRng(seed)
  return Array.from({ length: n }, () => sampleDelay(delay, rng))
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length

test('a bare number and a fixed distribution give exactly that many ms', () => {
  expect(new Set(samples(50, 'a', 20))).toEqual(new Set([50]))
  expect(new Set(samples({ distribution: 'fixed', ms: 75 }, 'a', 20))).toEqual(new Set([75]))
})

test('uniform samples stay within min and max and cover the range', () => {
  const values = samples({ distribution: 'uniform', min: 20, max: 80 })
  expect(Math.min(...values)).toBeGreaterThanOrEqual(20)
  expect(Math.max(...values)).toBeLessThanOrEqual(80)
  expect(Math.min(...values)).toBeLessThan(25)
  expect(Math.max(...values)).toBeGreaterThan(75)
})

test('normal samples centre on the mean and are never negative', () => {
  const values = samples({ distribution: 'normal', mean: 100, stddev: 20 })
  expect(mean(values)).toBeGreaterThan(97)
  expect(mean(values)).toBeLessThan(103)
  expect(Math.min(...samples({ distribution: 'normal', mean: 5, stddev: 50 }))).toBe(0)
})

test('lognormal samples have the median as their median and a long right tail', () => {
  const values = samples({ distribution: 'lognormal', median: 100, sigma: 0.5 })
  expect(median(values)).toBeGreaterThan(95)
  expect(median(values)).toBeLessThan(105)
  expect(Math.max(...values)).toBeGreaterThan(300)
  expect(Math.min(...values)).toBeGreaterThan(10)
})

test.each<Delay>([
  { distribution: 'uniform', min: 0, max: 1000 },
  { distribution: 'normal', mean: 200, stddev: 50 },
  { distribution: 'lognormal', median: 200, sigma: 1 },
])('the same seed gives the same %j delays, another seed others', (delay) => {
  expect(samples(delay, 'seed-1', 50)).toEqual(samples(delay, 'seed-1', 50))
  expect(samples(delay, 'seed-1', 50)).not.toEqual(samples(delay, 'seed-2', 50))
})

test('a sample is capped at ten minutes', () => {
  expect(
    Math.max(...samples({ distribution: 'lognormal', median: 500_000, sigma: 10 }, 'cap', 200))
  ).toBe(600_000)
})
