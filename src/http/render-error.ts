import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../app-env.js'
import {
  ApiError,
  CLIENT_CLOSED_REQUEST,
  ClientClosedError,
  CommandValidationError,
  httpError,
  InternalError,
  MockRefusal,
  reasonPhrase,
  RequestValidationError,
} from '../errors.js'
import type { Logger } from '../log.js'
import { json, originalUrl } from './respond.js'
import { redactUrl } from './redact.js'

/** What rendering needs of the mock: its clock, a 500's errorId, and the log that records it. */
interface RenderingState {
  now(): Date
  newErrorId(): string
  logger: Logger
}

/** An error Hono raised itself (a malformed URL, say), as Nest would have thrown it. */
const fromHono = (error: HTTPException) =>
  httpError(error.status, error.message || reasonPhrase(error.status))

/**
 * The single error renderer: every failure, from validation to an unexpected throw, leaves in
 * the body the exception filter of the request's generation gives it. Unexpected errors become a
 * 500 with an errorId, never a stack trace.
 */
export function renderError(c: Context<AppEnv>, state: RenderingState, error: unknown): Response {
  if (error instanceof ClientClosedError)
    return new Response(null, { status: CLIENT_CLOSED_REQUEST })
  const path = originalUrl(c)
  const timestamp = state.now().toISOString()
  const generation = c.get('generation')
  const known =
    error instanceof MockRefusal
      ? error.answer()
      : error instanceof HTTPException && error.status < 500
        ? fromHono(error)
        : error
  if (
    known instanceof ApiError ||
    known instanceof RequestValidationError ||
    known instanceof CommandValidationError
  ) {
    if (known instanceof ApiError)
      for (const [name, value] of Object.entries(known.headers)) c.header(name, value)
    const { status, body } = generation.errors.render(known, path, timestamp)
    return json(c, status as ContentfulStatusCode, body)
  }
  const errorId = state.newErrorId()
  if (!(error instanceof InternalError))
    state.logger.log('error', 'unexpected error', {
      errorId,
      path: redactUrl(path),
      error: String(error),
    })
  return json(c, 500, generation.errors.internal(path, timestamp, errorId))
}
