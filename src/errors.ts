/**
 * The one place that knows the real service's error body.
 *
 * Upstream (Novu API v2.0 era, `apps/api/src/exception-filter.ts`) answers every error as
 * `{ statusCode, timestamp, path, message, ...extra }`: Nest's built-in exceptions add an
 * `error` reason phrase when thrown with a message, and none when thrown bare.
 */
export type ErrorPayload = { message: unknown; error?: string } & Record<string, unknown>

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly payload: ErrorPayload,
    readonly headers: Record<string, string> = {}
  ) {
    super(typeof payload.message === 'string' ? payload.message : JSON.stringify(payload.message))
    this.name = 'ApiError'
  }
}

export const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
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

export const INTERNAL_ERROR_MESSAGE =
  'Internal server error, contact support and provide them with the errorId'

/** Nest's `new XxxException(message)`: the message plus the reason phrase as `error`. */
export function httpError(status: number, message: string | string[]): ApiError {
  return new ApiError(status, { message, error: REASON[status] ?? 'Error' })
}

/** Nest's `new XxxException()` with no argument: the reason phrase as message, no `error` key. */
export function bareHttpError(status: number): ApiError {
  return new ApiError(status, { message: REASON[status] ?? 'Error' })
}

export const badRequest = (message: string | string[]) => httpError(400, message)
export const notFound = (message?: string) =>
  message === undefined ? bareHttpError(404) : httpError(404, message)
export const unauthorized = (message?: string) =>
  message === undefined ? bareHttpError(401) : httpError(401, message)

/** A failure the real service answers with 500 and an errorId (a Mongo cast error, say). */
export class InternalError extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'InternalError'
  }
}

export function errorBody(
  status: number,
  path: string,
  timestamp: string,
  payload: ErrorPayload
): Record<string, unknown> {
  const { message, ...extra } = payload
  return { statusCode: status, timestamp, path, message, ...extra }
}

export function internalErrorBody(path: string, timestamp: string, errorId: string) {
  return errorBody(500, path, timestamp, { message: INTERNAL_ERROR_MESSAGE, errorId })
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
