import { expect, test } from 'vitest'
import { matchHeaders, matchPartial } from './match.js'

test.each([
  ['an object with extra keys', { a: 1 }, { a: 1, b: 2 }],
  ['nested objects', { data: { active: true } }, { data: { active: true, name: 'x' } }],
  ['a prefix of a longer array', [{ key: 'a' }], [{ key: 'a' }, { key: 'b' }]],
  ['an empty array with an empty array', [], []],
  ['a regex with a matching string', '/^[0-9a-f]{24}$/', '66fbb0a0c1f2e3d4a5b60001'],
  ['a regex with flags', '/JSON/i', 'application/json'],
  ['null with null', null, null],
])('matches %s', (_, expected, actual) => {
  expect(matchPartial(expected, actual, 'body')).toEqual([])
})

test.each([
  [
    'a different primitive',
    { data: { active: true } },
    { data: { active: false } },
    'body.data.active: expected true, got false',
  ],
  [
    'a missing key',
    { data: { name: 'x' } },
    { data: {} },
    'body.data.name: expected "x", got (missing)',
  ],
  [
    'an array element',
    { data: [{ key: 'a' }] },
    { data: [{ key: 'b' }] },
    'body.data[0].key: expected "a", got "b"',
  ],
  ['a shorter array', [1, 2], [1], 'body: expected at least 2 elements, got 1'],
  ['a non-empty array against []', [], [1], 'body: expected an empty array, got 1 element'],
  ['a regex against a number', '/^1$/', 1, 'body: expected /^1$/, got 1'],
  ['an object against an array', { a: 1 }, [1], 'body: expected an object, got [1]'],
  ['a number against its string', 1, '1', 'body: expected 1, got "1"'],
])('reports %s with its path', (_, expected, actual, message) => {
  expect(matchPartial(expected, actual, 'body')).toEqual([message])
})

test('reports every difference, not just the first', () => {
  expect(matchPartial({ a: 1, b: 2 }, { a: 0, b: 0 }, 'body')).toHaveLength(2)
})

test('matches header names case-insensitively and values exactly or by regex', () => {
  const headers = new Headers({ 'Content-Type': 'text/html', 'Retry-After': '2' })
  expect(matchHeaders({ 'retry-after': '2' }, headers)).toEqual([])
  expect(matchHeaders({ 'Content-Type': '/json/' }, headers)).toEqual([
    'header content-type: expected /json/, got text/html',
  ])
  expect(matchHeaders({ location: '/x' }, headers)).toEqual([
    'header location: expected /x, got (missing)',
  ])
})
