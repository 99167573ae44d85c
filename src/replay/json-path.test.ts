import { expect, test } from 'vitest'
import { isCaptureSource, parseJsonPath, readCapture, readPath } from './json-path.js'

const body = { data: [{ _id: 'a1', tags: ['x'] }], 'odd key': 7, page: 0 }

test.each([
  ['$', body],
  ['$.page', 0],
  ['$.data[0]._id', 'a1'],
  ['$.data[0].tags[0]', 'x'],
  ["$['odd key']", 7],
  ['$["odd key"]', 7],
  ['$.data[1]._id', undefined],
  ['$.page.deeper', undefined],
])('reads %s from a JSON body', (source, expected) => {
  expect(readPath(body, parseJsonPath(source) ?? [])).toEqual(expected)
})

test.each(['data', '$.', '$..data', '$.data[*]', '$.data[-1]', "$['open"])(
  'refuses the path %s',
  (source) => {
    expect(parseJsonPath(source)).toBeUndefined()
  }
)

test('accepts status and headers.<name> as capture sources besides JSON paths', () => {
  expect(['status', 'headers.location', '$.data'].every(isCaptureSource)).toBe(true)
  expect(isCaptureSource('headers.')).toBe(false)
})

test('reads the status and a header, case-insensitively, from a response', () => {
  const response = { status: 201, headers: new Headers({ 'Retry-After': '2' }), body: {} }
  expect(readCapture('status', response)).toBe(201)
  expect(readCapture('headers.retry-after', response)).toBe('2')
  expect(readCapture('headers.missing', response)).toBeUndefined()
})
