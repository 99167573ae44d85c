import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_SEGMENTS,
  MAX_PATTERN_WILDCARDS,
  MAX_READS_PER_CHARACTER,
  pathMatcher,
  pathMatchingWork,
  patternProblem,
} from './path-pattern.js'

/** What matching one path answers, and the characters of it the matcher read. */
function counted(match: (path: string) => boolean, path: string) {
  const before = pathMatchingWork()
  const matched = match(path)
  return { matched, read: pathMatchingWork() - before }
}

test.each([
  ['/v1/topics', '/v1/topics', true],
  ['/v1/topics', '/v1/topics/', false],
  ['/v1/workflows/:id/status', '/v1/workflows/abc/status', true],
  ['/v1/workflows/:id/status', '/v1/workflows/a/b/status', false],
  ['/v1/workflows/:id/status', '/v1/workflows//status', false],
  ['/v1/*', '/v1/workflows/abc/status', true],
  ['/v1/*', '/v2/topics', false],
  ['/v1/topic*', '/v1/topics', true],
  ['*/status', '/v1/workflows/x/status', true],
  ['/v1/*/status', '/v1/a/b/status', true],
  ['/v1/messages/transaction/:transactionId', '/v1/messages/transaction/tx-1', true],
  ['/v1/*/:id/status', '/v1/workflows/x/y/status', true],
  ['/v1/*/:id/status', '/v1/workflows/status', false],
  ['/v1/:id*', '/v1/abc', true],
  ['/v1/a:b', '/v1/a:b', true],
  ['*', '/anything/at/all', true],
  ['/v1/*s*s', '/v1/topics/ss', true],
  ['/v1/*/*/', '/v1/a/', false],
  ['/v1/*/*/', '/v1/a//', true],
])('%s matches %s: %s', (pattern, path, expected) => {
  expect(pathMatcher(pattern)(path)).toBe(expected)
})

test('a pattern with many wildcards reads a long path that almost matches a few times at most', () => {
  const match = pathMatcher('/*a*a*a*a*a*a*a*a*a*a*x')
  const almost = `/${'a'.repeat(16_000)}`
  const { matched, read } = counted(match, almost)
  expect(matched).toBe(false)
  expect(read).toBeLessThanOrEqual(MAX_READS_PER_CHARACTER * (almost.length + 1))
  expect(match(`/${'a'.repeat(50)}x`)).toBe(true)
})

/** What a pattern means, spelled as a regular expression: slow on long input, plain on short. */
function oracle(pattern: string): RegExp {
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const parts = pattern
    .split('/')
    .map((part) =>
      part.startsWith(':') ? '[^/]+' : [...part].map((c) => (c === '*' ? '.*' : escape(c))).join('')
    )
  return new RegExp(`^${parts.join('/')}$`, 's')
}

const somePattern = fc
  .array(fc.constantFrom('/', '*', ':id', 'a', 'b', 'ab', ':', 'v1'), { maxLength: 10 })
  .map((p) => p.join(''))
const somePath = fc
  .array(fc.constantFrom('/', 'a', 'b', 'ab', 'v1', ':'), { maxLength: 12 })
  .map((p) => p.join(''))

test('matches every pattern and path as the plain regular-expression reading does', () => {
  fc.assert(
    fc.property(somePattern, somePath, (pattern, path) => {
      expect(pathMatcher(pattern)(path)).toBe(oracle(pattern).test(path))
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 3000) }
  )
})

test('reads each character of any path a few times at most, whatever the pattern', () => {
  fc.assert(
    fc.property(somePattern, somePath, fc.nat(40), (pattern, path, repeat) => {
      const long = path.repeat(repeat + 1)
      const { read } = counted(pathMatcher(pattern), long)
      expect(read).toBeLessThanOrEqual(MAX_READS_PER_CHARACTER * (long.length + 1))
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 3000) }
  )
})

test('a pattern at every limit reads each character of an 8 kB path of single letters a few times at most', () => {
  const middle = Array(MAX_PATTERN_SEGMENTS - 2)
    .fill('a')
    .join('/')
  const pattern = `/*/${middle}/b*`.padEnd(MAX_PATTERN_LENGTH - 1, 'c') + '*'
  expect(patternProblem(pattern)).toBeUndefined()
  const match = pathMatcher(pattern)
  const path = '/a'.repeat(4096)
  for (let i = 0; i < 20; i++) {
    const { matched, read } = counted(match, path + i)
    expect(matched).toBe(false)
    expect(read).toBeGreaterThan(0)
    expect(read).toBeLessThanOrEqual(MAX_READS_PER_CHARACTER * (path.length + 2))
  }
})

test('refuses a pattern longer than the limit, naming the limit', () => {
  expect(patternProblem(`/${'a'.repeat(MAX_PATTERN_LENGTH)}`)).toContain(
    `at most ${MAX_PATTERN_LENGTH} characters`
  )
})

test('refuses a pattern with more segments than the limit, naming the limit', () => {
  expect(patternProblem('/a'.repeat(MAX_PATTERN_SEGMENTS + 1))).toContain(
    `at most ${MAX_PATTERN_SEGMENTS} segments`
  )
})

test('refuses a pattern with more wildcards than the limit, naming the limit', () => {
  expect(patternProblem(`/${'*a'.repeat(MAX_PATTERN_WILDCARDS + 1)}`)).toContain(
    `at most ${MAX_PATTERN_WILDCARDS} wildcards (*)`
  )
})
