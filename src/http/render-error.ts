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
import type { Generation } from '../generations/generation.js'
import type { MockState } from '../state.js'
import { json, originalUrl } from './respond.js'
import { redactUrl } from './redact.js'

/** The generation that answers this request: its environment's, else its key's, else the mock's. */
export function generationOf(c: Context<AppEnv>, state: MockState): Generation {
  return c.get('env')?.generation ?? state.generationForAuthorization(c.req.header('authorization'))
}

/** An error Hono raised itself (a malformed URL, say), as Nest would have thrown it. */
const fromHono = (error: HTTPException) =>
  httpError(error.status, error.message || reasonPhrase(error.status))

/**
 * The single error renderer: every failure, from validation to an unexpected throw, leaves in
 * the body the generation's exception filter gives it. Unexpected errors become a 500 with an
 * errorId, never a stack trace.
 */
export function renderError(c: Context<AppEnv>, state: MockState, error: unknown): Response {
  if (error instanceof ClientClosedError)
    return new Response(null, { status: CLIENT_CLOSED_REQUEST })
  const path = originalUrl(c)
  const timestamp = state.now().toISOString()
  const generation = generationOf(c, state)
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
