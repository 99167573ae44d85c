import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_SEGMENTS,
  MAX_PATTERN_WILDCARDS,
  pathMatcher,
  patternProblem,
} from './path-pattern.js'

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

test('a pattern with many wildcards fails fast on a long path that almost matches', () => {
  const match = pathMatcher('/*a*a*a*a*a*a*a*a*a*a*x')
  expect(match(`/${'a'.repeat(16_000)}`)).toBe(false)
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

test('matches every pattern and path as the plain regular-expression reading does', () => {
  const pieces = fc.constantFrom('/', '*', ':id', 'a', 'b', 'ab', ':', 'v1')
  const pattern = fc.array(pieces, { maxLength: 10 }).map((p) => p.join(''))
  const path = fc.array(fc.constantFrom('/', 'a', 'b', 'ab', 'v1', ':'), { maxLength: 12 })
  fc.assert(
    fc.property(pattern, path, (pattern, parts) => {
      const text = parts.join('')
      expect(pathMatcher(pattern)(text)).toBe(oracle(pattern).test(text))
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 3000) }
  )
})

test('a pattern at every limit matches an 8 kB path of single letters within a second', () => {
  const middle = Array(MAX_PATTERN_SEGMENTS - 2)
    .fill('a')
    .join('/')
  const pattern = `/*/${middle}/b*`.padEnd(MAX_PATTERN_LENGTH - 1, 'c') + '*'
  expect(patternProblem(pattern)).toBeUndefined()
  const match = pathMatcher(pattern)
  const path = '/a'.repeat(4096)
  const started = performance.now()
  for (let i = 0; i < 20; i++) expect(match(path + i)).toBe(false)
  expect(performance.now() - started).toBeLessThan(1000)
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
