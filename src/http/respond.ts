import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** JSON with the content type Express sends upstream. */
export function json(c: Context, status: ContentfulStatusCode, body: unknown): Response {
  c.header('Content-Type', JSON_CONTENT_TYPE)
  return c.body(JSON.stringify(body), status)
}

/** The request URL as upstream echoes it in `path`: path plus query string. */
export function originalUrl(c: Context): string {
  const url = c.req.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? '/' : url.slice(start)
}
