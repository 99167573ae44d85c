import { InternalError } from '../errors.js'

/**
 * A store was asked to keep a second document under an id it holds: MongoDB refuses that with
 * E11000 (a 500 upstream), and so does the mock, instead of replacing what is stored.
 */
export function duplicateId(collection: string, id: string): InternalError {
  return new InternalError(
    `E11000 duplicate key error collection: ${collection} index: _id_ dup key: { _id: "${id}" }`
  )
}
