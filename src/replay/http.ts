export interface OutgoingRequest {
  method: string
  /** Path and query, appended to the target. */
  path: string
  headers: Headers
  body?: unknown
}

export interface ReceivedResponse {
  status: number
  headers: Headers
  text: string
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown
}

export type SendResult =
  { response: ReceivedResponse; durationMs: number } | { error: string; durationMs: number }

export interface SendOptions {
  target: string
  fetch: typeof fetch
  timeoutMs: number
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** `fetch failed` alone says nothing; undici keeps the reason (ECONNREFUSED, …) in `cause`. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  if (error.name === 'TimeoutError') return error.message
  const cause = error.cause instanceof Error ? error.cause.message : undefined
  return cause ? `${error.message}: ${cause}` : error.message
}

/** Anything but a string goes as JSON; a string goes as it is, so malformed bodies can be sent. */
function encodeBody(request: OutgoingRequest): string | undefined {
  if (request.body === undefined) return undefined
  if (!request.headers.has('content-type')) request.headers.set('content-type', 'application/json')
  return typeof request.body === 'string' ? request.body : JSON.stringify(request.body)
}

/** Sends one request; a network error or timeout comes back as `error`, never as a throw. */
export async function send(request: OutgoingRequest, options: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const res = await options.fetch(`${options.target}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: encodeBody(request),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    const text = await res.text()
    const response = { status: res.status, headers: res.headers, text, body: parseJson(text) }
    return { response, durationMs: elapsed() }
  } catch (error) {
    return { error: `network: ${describeError(error)}`, durationMs: elapsed() }
  }
}
