import { expect, test } from 'vitest'
import { MissingVariableError, substitute, substitutePath, substituteText } from './template.js'

const variables = { id: 'a1', count: 3, ids: ['a1', 'b2'], query: 'a b&c' }

test('URL-encodes values substituted into a path', () => {
  expect(substitutePath('/v1/x/{{id}}?q={{query}}', variables)).toBe('/v1/x/a1?q=a%20b%26c')
})

test('refuses an unknown variable in a path', () => {
  expect(() => substitutePath('/v1/x/{{nope}}', variables)).toThrow(MissingVariableError)
})

test('leaves unknown placeholders in text alone, as Novu templates use the same syntax', () => {
  expect(substituteText('Hi {{firstName}}, id {{ id }}', variables)).toBe('Hi {{firstName}}, id a1')
})

test('keeps the JSON type of a value when the string is one placeholder', () => {
  expect(substitute({ n: '{{count}}', list: '{{ids}}', text: 'n={{count}}' }, variables)).toEqual({
    n: 3,
    list: ['a1', 'b2'],
    text: 'n=3',
  })
})

test('substitutes inside nested arrays and objects and keeps other values', () => {
  expect(substitute([{ deep: ['{{id}}'] }, 1, null, true], variables)).toEqual([
    { deep: ['a1'] },
    1,
    null,
    true,
  ])
})
