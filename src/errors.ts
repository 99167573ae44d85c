/**
 * The errors the mock raises, as the real service raises them. Which body each becomes is the
 * generation's exception filter's business (src/generations/error-filters.ts), never the route's.
 */

/**
 * What a Nest HttpException carries as its response: a string (the throttler's), or an object
 * with a `message`. Nest's built-in exceptions thrown with a text add `error` (the reason phrase)
 * and `statusCode`; thrown bare, only `statusCode`; thrown with an object, the object as it is.
 */
export type ExceptionResponse = string | ({ message: unknown } & Record<string, unknown>)

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly response: ExceptionResponse,
    readonly headers: Record<string, string> = {}
  ) {
    const message = typeof response === 'string' ? response : response.message
    super(typeof message === 'string' ? message : JSON.stringify(message))
    this.name = 'ApiError'
  }
}

const RATE_LIMIT_MESSAGE = 'API rate limit exceeded'

/** The throttler's 429: upstream's filter gives it a body of its own. */
export class ThrottledError extends ApiError {
  constructor(headers: Record<string, string> = {}) {
    super(429, RATE_LIMIT_MESSAGE, headers)
    this.name = 'ThrottledError'
  }
}

/** Nest's global ValidationPipe refused the request's DTO: every message, in upstream's order. */
export class RequestValidationError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join('; '))
    this.name = 'RequestValidationError'
  }
}

export interface FieldViolation {
  property: string
  messages: string[]
  value: unknown
}

/** A command's own class-validator checks failed (`BaseCommand.create`), keyed by property. */
export class CommandValidationError extends Error {
  constructor(
    readonly command: string,
    readonly violations: FieldViolation[]
  ) {
    super(violations.flatMap((v) => v.messages).join('; '))
    this.name = 'CommandValidationError'
  }
}

/** A failure the real service answers with 500 and an errorId (a Mongo cast error, say). */
export class InternalError extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'InternalError'
  }
}

export const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export const reasonPhrase = (status: number) => REASON[status] ?? 'Error'

export const INTERNAL_ERROR_MESSAGE =
  'Internal server error, contact support and provide them with the errorId'

/** Nest's `new XxxException(message)`. */
export function httpError(status: number, message: string | string[]): ApiError {
  return new ApiError(status, { message, error: reasonPhrase(status), statusCode: status })
}

/** Nest's `new XxxException()` with no argument: the reason phrase as message, no `error` key. */
export function bareHttpError(status: number): ApiError {
  return new ApiError(status, { message: reasonPhrase(status), statusCode: status })
}

/** Nest's `new XxxException({ message, ...details })`: the object is the response as it is. */
export function objectError(
  status: number,
  response: { message: string } & Record<string, unknown>
): ApiError {
  return new ApiError(status, response)
}

export const badRequest = (message: string | string[]) => httpError(400, message)
export const notFound = (message?: string) =>
  message === undefined ? bareHttpError(404) : httpError(404, message)
export const unauthorized = (message?: string) =>
  message === undefined ? bareHttpError(401) : httpError(401, message)

/**
 * A refusal decided in the mock's own domain (a scenario that does not load, a rule the rule set
 * refuses, the environment limit): raised where the domain decides, answered by the single error
 * renderer like any other error, so no route maps it to HTTP by hand.
 */
export abstract class MockRefusal extends Error {
  /** The answer, as the real service shapes a Nest HttpException. */
  abstract answer(): ApiError
}

/** An error the mock raises on purpose, as opposed to a bug. */
export const isKnownError = (error: unknown) =>
  error instanceof ApiError ||
  error instanceof MockRefusal ||
  error instanceof RequestValidationError ||
  error instanceof CommandValidationError

/** Every message an error carries, as plain strings (for scenario and import reports). */
export function errorMessages(error: unknown): string[] {
  if (error instanceof RequestValidationError) return error.messages
  if (error instanceof CommandValidationError) return error.violations.flatMap((v) => v.messages)
  if (error instanceof ApiError) {
    const message = typeof error.response === 'string' ? error.response : error.response.message
    return ([] as unknown[]).concat(message).map(String)
  }
  if (error instanceof InternalError) return [error.reason]
  if (error instanceof MockRefusal) return errorMessages(error.answer())
  return [String(error)]
}

/** The client went away before its request was read: nobody is left to answer. */
export class ClientClosedError extends Error {
  constructor() {
    super('the client closed the connection')
    this.name = 'ClientClosedError'
  }
}

/** nginx's "client closed request", as the journal records it. */
export const CLIENT_CLOSED_REQUEST = 499
