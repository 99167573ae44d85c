import { expect, test } from 'vitest'
import { pathMatcher } from './path-pattern.js'

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
])('%s matches %s: %s', (pattern, path, expected) => {
  expect(pathMatcher(pattern)(path)).toBe(expected)
})

test('a pattern with many wildcards fails fast on a long path that almost matches', () => {
  const match = pathMatcher('/*a*a*a*a*a*a*a*a*a*a*x')
  expect(match(`/${'a'.repeat(16_000)}`)).toBe(false)
  expect(match(`/${'a'.repeat(50)}x`)).toBe(true)
})
