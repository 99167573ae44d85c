/**
 * The capture's HTTP client: GETs on the Novu API with the key, JSON back, 429 and 503 retried
 * after the server's Retry-After, and every failure turned into a CaptureError that says what to
 * do (a bad key, a wrong URL, a rate limit that does not end, an answer it does not understand).
 */
import { redactKey } from '../http/redact.js'

export type CaptureErrorKind = 'auth' | 'network' | 'not-found' | 'rate-limit' | 'unexpected'

export class CaptureError extends Error {
  constructor(
    readonly kind: CaptureErrorKind,
    message: string
  ) {
    super(message)
    this.name = 'CaptureError'
  }
}

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  fetch?: typeof fetch
  /** Retries of one request answered 429 or 503 before the capture gives up. */
  maxRetries?: number
  /** The longest wait a Retry-After may ask for; a longer one ends the capture with its reason. */
  maxWaitMs?: number
  timeoutMs?: number
  /** The largest answer read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number
  sleep?: (ms: number) => Promise<void>
  /** Told of each wait, to show on the terminal. */
  onWait?: (path: string, ms: number, attempt: number) => void
}

export interface Answer {
  status: number
  body: unknown
}

const DEFAULT_WAIT_MS = 1000
/** The largest answer read: a page of 100 workflows is a few MB; past this the server is not Novu's. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** The body as text, read no further than `max` bytes (undefined past it). */
async function cappedText(res: Response, max: number): Promise<string | undefined> {
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel()
    return undefined
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
const RETRIED = new Set([429, 503])

/** Retry-After as seconds or as an HTTP date; absent or unreadable: undefined. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  if (error.name === 'TimeoutError') return 'no answer in time'
  const cause = error.cause as { code?: string; message?: string } | undefined
  return cause?.code ?? cause?.message ?? error.message
}

/** The `message` of upstream's error envelope, else the start of the text. */
function errorText(body: unknown, text: string): string {
  if (body !== null && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown }
    return Array.isArray(message) ? message.join('; ') : String(message)
  }
  return text.slice(0, 120)
}

export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? fetch
  const maxRetries = options.maxRetries ?? 5
  const maxWaitMs = options.maxWaitMs ?? 120_000
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES
  const sleep = options.sleep ?? ((ms) => new Promise<void>((done) => setTimeout(done, ms)))
  const shownKey = redactKey(options.apiKey)

  async function once(path: string): Promise<{ res: Response; text: string }> {
    try {
      const res = await doFetch(`${base}${path}`, {
        headers: { authorization: `ApiKey ${options.apiKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await cappedText(res, maxBytes)
      if (text === undefined)
        throw new CaptureError(
          'unexpected',
          `${base} answered GET ${path} with more than ${maxBytes / 1024 / 1024} MB: is --from a Novu API?`
        )
      return { res, text }
    } catch (error) {
      if (error instanceof CaptureError) throw error
      throw new CaptureError(
        'network',
        `cannot reach ${base} (${networkReason(error)}): check --from, e.g. https://api.novu.co or https://eu.api.novu.co`
      )
    }
  }

  /** GET path; `allow` lists statuses returned as they are instead of thrown (a probe's). */
  async function get(path: string, allow: readonly number[] = []): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      const { res, text } = await once(path)
      let body: unknown
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        body = undefined
      }
      if (RETRIED.has(res.status) && !allow.includes(res.status)) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? DEFAULT_WAIT_MS * attempt
        if (attempt > maxRetries || wait > maxWaitMs)
          throw new CaptureError(
            'rate-limit',
            `${base} kept answering ${res.status} to GET ${path} (${attempt} tries${wait > maxWaitMs ? `, Retry-After ${Math.ceil(wait / 1000)} s` : ''}): the rate limit did not end; wait and capture again, or capture fewer subscribers (--subscribers N)`
          )
        options.onWait?.(path, wait, attempt)
        await sleep(wait)
        continue
      }
      if (allow.includes(res.status)) return { status: res.status, body }
      if (res.status === 401 || res.status === 403)
        throw new CaptureError(
          'auth',
          `${base} refused the key ${shownKey} (${res.status} ${errorText(body, text)}): give the environment's secret key with --key or NOVU_SECRET_KEY (dashboard: Settings, API Keys), and the URL of its region with --from`
        )
      if (res.status === 404)
        throw new CaptureError(
          'not-found',
          `${base} answers 404 to GET ${path}: is --from the Novu API's base URL (https://api.novu.co, https://eu.api.novu.co, or your own server's API)?`
        )
      if (res.status !== 200 || body === undefined)
        throw new CaptureError(
          'unexpected',
          `${base} answered GET ${path} with ${res.status} ${body === undefined ? `and no JSON (${JSON.stringify(text.slice(0, 80))})` : errorText(body, text)}: is --from a Novu API?`
        )
      return { status: res.status, body }
    }
  }

  return { get, base }
}

export type CaptureClient = ReturnType<typeof createClient>

/** An answer that is not the shape a reader expects: named so that the message says where. */
export function notUnderstood(path: string, expected: string): CaptureError {
  return new CaptureError(
    'unexpected',
    `the answer to GET ${path} is not ${expected}: is --from a Novu API of a version the capture knows (2024-10 or later)?`
  )
}
