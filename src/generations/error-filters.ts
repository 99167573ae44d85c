import {
  ApiError,
  CommandValidationError,
  INTERNAL_ERROR_MESSAGE,
  RequestValidationError,
  ThrottledError,
} from '../errors.js'

type ErrorBody = Record<string, unknown>
type KnownError = ApiError | RequestValidationError | CommandValidationError

/** How one generation's exception filter turns a known error into a status and a body. */
export interface ErrorFilter {
  render(error: KnownError, path: string, timestamp: string): { status: number; body: ErrorBody }
  internal(path: string, timestamp: string, errorId: string): ErrorBody
}

const internal = (path: string, timestamp: string, errorId: string): ErrorBody => ({
  statusCode: 500,
  timestamp,
  path,
  message: INTERNAL_ERROR_MESSAGE,
  errorId,
})

/**
 * The 2024-10 filter: the exception's response object spread over
 * `{statusCode, timestamp, path, message}`; every validation failure is a 400 message array.
 */
export const filter2024: ErrorFilter = {
  render(error, path, timestamp) {
    if (error instanceof RequestValidationError || error instanceof CommandValidationError) {
      const messages =
        error instanceof RequestValidationError
          ? error.messages
          : error.violations.flatMap((v) => v.messages)
      const body = { statusCode: 400, timestamp, path, message: messages, error: 'Bad Request' }
      return { status: 400, body }
    }
    const { status, response } = error
    if (typeof response === 'string')
      return { status, body: { statusCode: status, timestamp, path, message: response } }
    const { message, statusCode: _status, ...rest } = response
    return { status, body: { statusCode: status, timestamp, path, message, ...rest } }
  },
  internal,
}

/**
 * The filter since 2025: validation is a 422 with an `errors` map, and whatever the exception's
 * response carries besides its message becomes `ctx`, whose keys are also copied flat (upstream
 * keeps them flat for older clients).
 */
export const filter2026: ErrorFilter = {
  render(error, path, timestamp) {
    // Upstream's filter takes any exception whose message is an array for the pipe's.
    const pipeMessages =
      error instanceof RequestValidationError
        ? error.messages
        : error instanceof ApiError &&
            typeof error.response !== 'string' &&
            Array.isArray(error.response.message)
          ? (error.response.message as string[])
          : undefined
    if (pipeMessages) {
      const errors = { general: { messages: pipeMessages, value: 'No Value Recorded' } }
      const base = { statusCode: 422, timestamp, path, message: 'Validation Error', ctx: {} }
      return { status: 422, body: { ...base, errors } }
    }
    if (error instanceof CommandValidationError) {
      const details = error.violations
        .map((v) => `${v.property}: ${v.messages.join(', ')}`)
        .join('; ')
      const message = `Validation failed for ${error.command}: ${details}`
      const errors = Object.fromEntries(
        error.violations.map((v) => [v.property, { messages: v.messages, value: v.value }])
      )
      return { status: 422, body: { statusCode: 422, timestamp, path, message, ctx: {}, errors } }
    }
    if (!(error instanceof ApiError)) throw error
    const { status, response } = error
    if (error instanceof ThrottledError) {
      const body = { statusCode: status, timestamp, path, message: error.message, ctx: {} }
      return { status, body }
    }
    // A plain-text response leaves `ctx` undefined, which JSON drops.
    if (typeof response === 'string')
      return { status, body: { statusCode: status, timestamp, path, message: response } }
    const { message, ...ctx } = response
    const dto = { statusCode: status, timestamp, path, message, ctx }
    return { status, body: { ...ctx, ...dto } }
  },
  internal,
}
