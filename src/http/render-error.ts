import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  ApiError,
  CLIENT_CLOSED_REQUEST,
  ClientClosedError,
  errorBody,
  InternalError,
  internalErrorBody,
  REASON,
} from '../errors.js'
import type { MockState } from '../state.js'
import { json, originalUrl } from './respond.js'

/**
 * The single error renderer: every failure, from validation to an unexpected throw, leaves in
 * upstream's body shape. Unexpected errors become a 500 with an errorId, never a stack trace.
 */
export function renderError(c: Context, state: MockState, error: unknown): Response {
  if (error instanceof ClientClosedError)
    return new Response(null, { status: CLIENT_CLOSED_REQUEST })
  const path = originalUrl(c)
  const timestamp = state.now().toISOString()
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
    return json(
      c,
      error.status as ContentfulStatusCode,
      errorBody(error.status, path, timestamp, error.payload)
    )
  }
  if (error instanceof HTTPException && error.status < 500) {
    const reason = REASON[error.status] ?? 'Error'
    return json(
      c,
      error.status,
      errorBody(error.status, path, timestamp, { message: error.message || reason, error: reason })
    )
  }
  const errorId = state.newErrorId()
  if (!(error instanceof InternalError))
    state.logger.log('error', 'unexpected error', { errorId, path, error: String(error) })
  return json(c, 500, internalErrorBody(path, timestamp, errorId))
}
