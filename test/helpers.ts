import { expect } from 'vitest'

/** Anything with Hono's `request()`: the app returned by `createMock()`. */
export interface Requestable {
  request(path: string, init?: RequestInit): Response | Promise<Response>
}

export interface RequestOptions {
  /** The API key sent as `Authorization: ApiKey <key>`; `null` sends no Authorization header. */
  key?: string | null
  /** An object is sent as JSON; a string is sent as it is (with a JSON content type unless overridden). */
  body?: unknown
  headers?: Record<string, string>
}

export interface TestResponse {
  status: number
  headers: Headers
  text: string
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const DEFAULT_KEY = 'test-key'

/** One request through `app.request()`, with the body read once as text and as JSON. */
export async function request(
  app: Requestable,
  method: string,
  path: string,
  { key = DEFAULT_KEY, body, headers = {} }: RequestOptions = {}
): Promise<TestResponse> {
  const sent: Record<string, string> = {}
  if (key !== null) sent.Authorization = `ApiKey ${key}`
  if (body !== undefined) sent['Content-Type'] = 'application/json'
  Object.assign(sent, headers)
  const init: RequestInit = { method, headers: sent }
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
  const res = await app.request(path, init)
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
export const OBJECT_ID = /^[0-9a-f]{24}$/
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** An error body without its `timestamp`, after checking that the timestamp is an ISO-8601 string. */
export function withoutTimestamp(body: unknown): Record<string, unknown> {
  expect(body).toBeTypeOf('object')
  const { timestamp, ...rest } = body as Record<string, unknown>
  expect(timestamp).toMatch(ISO_DATE)
  return rest
}

/** A 500 body without its `timestamp` and `errorId`, after checking both. */
export function withoutErrorId(body: unknown): Record<string, unknown> {
  const { errorId, ...rest } = withoutTimestamp(body)
  expect(errorId).toMatch(UUID_V4)
  return rest
}

export const INTERNAL_ERROR_MESSAGE =
  'Internal server error, contact support and provide them with the errorId'

/**
 * What `work` answers and how far a work counter of the mock's (characters of path read, tokens
 * lexed) moved meanwhile: bounds on work, where a clock would flake on a loaded machine.
 */
export async function counted<T>(counter: () => number, work: () => T | Promise<T>) {
  const before = counter()
  const result = await work()
  return { result, work: counter() - before }
}
