import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { sentTarget } from './request-target.js'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// A plain header object, not c.header(): Hono then skips building a Headers instance, and
// @hono/node-server writes the response straight from it.
const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE }

/** JSON with the content type Express sends upstream. */
export function json(c: Context, status: ContentfulStatusCode, body: unknown): Response {
  return jsonText(c, status, JSON.stringify(body))
}

/** JSON already serialised, sent as `json()` sends it. */
export function jsonText(c: Context, status: ContentfulStatusCode, text: string): Response {
  // A reference, not a copy: the journal keeps the head of 2xx answers to find ids in.
  if (status < 300) c.set('responseText', text)
  return c.body(text, status, JSON_HEADERS)
}

/** A JSON answer kept with its bytes (see answer-cache.ts): sent as `jsonText` sends its text. */
export function jsonAnswer(
  c: Context,
  status: ContentfulStatusCode,
  answer: { text: string; bytes: Uint8Array<ArrayBuffer> }
): Response {
  if (status < 300) c.set('responseText', answer.text)
  return c.body(answer.bytes, status, JSON_HEADERS)
}

/** The query string of the request, as sent (empty when there is none). */
export function queryText(c: Context): string {
  const url = c.req.url
  const at = url.indexOf('?')
  return at === -1 ? '' : url.slice(at + 1)
}

/** The request URL as upstream echoes it in `path`: path plus query string. */
export function originalUrl(c: Context): string {
  const sent = sentTarget(c.env?.incoming)
  if (sent !== undefined) return sent
  const url = c.req.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? '/' : url.slice(start)
}
