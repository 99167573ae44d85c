import { expect, test } from 'vitest'
import { idsInJson } from './response-ids.js'

const A = '0123456789abcdef01234567'
const B = '89abcdef0123456789abcdef'

test('finds ObjectIds by JSON path, through objects and arrays', () => {
  const text = JSON.stringify({ data: { _id: A, steps: [{ _id: B, n: 1, ok: true }], name: 'x' } })
  expect(idsInJson(text)).toEqual({ '$.data._id': A, '$.data.steps[0]._id': B })
})

test('reads what precedes the cut of a text cut short', () => {
  const text = JSON.stringify({ data: [{ _id: A }, { _id: B, name: 'a long name' }] })
  expect(idsInJson(text.slice(0, text.indexOf(B) + 30))).toEqual({
    '$.data[0]._id': A,
    '$.data[1]._id': B,
  })
  expect(idsInJson(text.slice(0, text.indexOf(B) + 5))).toEqual({ '$.data[0]._id': A })
})

test('names a key that a dotted path cannot hold in brackets', () => {
  expect(idsInJson(JSON.stringify({ 'a.b': A, "it's": B }))).toEqual({
    "$['a.b']": A,
    '$["it\'s"]': B,
  })
})

test('skips strings that are not ObjectIds, and escaped quotes inside strings', () => {
  const text = JSON.stringify({ note: 'say "hi"', _id: A.toUpperCase(), other: `${A}x`, id: A })
  expect(idsInJson(text)).toEqual({ '$.id': A })
})

test('gives nothing for text that is not JSON', () => {
  expect(idsInJson('<html>not json</html>')).toEqual({})
})
