import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'

test('createMock names every invalid option by its name, in one error', () => {
  expect(() => createMock({ port: -1, journalSize: -5 })).toThrow(
    /^invalid novu-mock options: port: .+; journalSize: .+$/
  )
})
