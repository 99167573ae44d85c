import type { Context } from 'hono'
import type { Generation } from '../generations/generation.js'
import { badRequest, ClientClosedError } from '../errors.js'
import type { AppEnv } from '../app-env.js'
import { noteOnRequest } from './notes.js'
import { textMemo } from './text-memo.js'

const SMALL_BODY_LIMIT = 100 * 1024
/** The control plane's own limit, whatever the generation. */
const ADMIN_BODY_LIMIT = 20 * 1024 * 1024
// Upstream raises the JSON limit on these prefixes (20 MB, 26 MB since 2025) and keeps 100 kB elsewhere.
const LARGE_BODY_PREFIXES = [
  '/v1/events',
  '/v1/notification-templates',
  '/v1/workflows',
  '/v1/layouts',
  '/v1/bridge/sync',
  '/v1/bridge/diff',
]

function bodyLimitFor(path: string, generation: Generation): number {
  if (path.startsWith('/__admin')) return ADMIN_BODY_LIMIT
  const large = (prefix: string) => path.startsWith(prefix)
  return LARGE_BODY_PREFIXES.some(large) || generation.largeBodyPrefixes.some(large)
    ? generation.largeBodyLimit
    : SMALL_BODY_LIMIT
}

const isJsonType = (type: string) => {
  const media = type.split(';', 1)[0]?.trim().toLowerCase()
  return media === 'application/json'
}

async function readText(request: Request, limit: number, tooLarge: () => Error): Promise<string> {
  const length = request.headers.get('content-length')
  const declared = Number(length)
  if (declared > limit) throw tooLarge()
  // A declared length is what Node's parser lets through, so the whole body fits the limit:
  // arrayBuffer() then reads it straight off the socket, where `body` would build a web stream.
  if (length !== null && Number.isInteger(declared) && declared >= 0) {
    const bytes = Buffer.from(
      await request.arrayBuffer().catch(() => {
        throw new ClientClosedError()
      })
    )
    if (bytes.byteLength > limit) throw tooLarge()
    return bytes.toString('utf8')
  }
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new ClientClosedError()
    })
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The parse error text body-parser gives for a body that is valid JSON but not an object or array. */
function strictViolation(text: string, first: string): string {
  const index = text.indexOf(first)
  const masked = text.slice(0, index) + '#'.repeat(text.length - index)
  try {
    JSON.parse(masked)
    return 'Unexpected token'
  } catch (error) {
    return (error as Error).message.replace(/#+/g, (run) => text.slice(index, index + run.length))
  }
}

function parseJson(sent: string): unknown {
  // body-parser drops a UTF-8 byte order mark before parsing.
  const text = sent.charCodeAt(0) === 0xfeff ? sent.slice(1) : sent
  if (text.length === 0) return {}
  const first = /^[ \t\n\r]*([^ \t\n\r])/.exec(text)?.[1]
  if (first !== '{' && first !== '[') {
    if (first === undefined) throw badRequest('Unexpected end of JSON input')
    throw badRequest(strictViolation(text, first))
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw badRequest((error as Error).message)
  }
}

/**
 * Reads a JSON body as Express's body-parser does for upstream: only for a JSON content type,
 * within the path's size limit, strict about the top-level value, with Node's own parse message.
 * Any other content type leaves the body empty, as upstream treats it. The body step of the
 * request path (serve.ts), in the request's generation: undefined when there is no JSON body to
 * read (no promise, no async frame), else the promise of `rawBody` and `body` set on the context.
 */
export function readJsonBody(
  c: Context<AppEnv>,
  /** The route never changes its body: one parse may serve every request that sends the text. */
  shared = false
): Promise<void> | undefined {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  const type = c.req.header('content-type')
  if (!type || !isJsonType(type)) {
    if (hasBody(c)) noteOnRequest(c, unreadBodyNote(type))
    return undefined
  }
  return readJson(c, shared)
}

/**
 * Whether the request carries a body: over HTTP, a declared length over 0 or a chunked one (asking
 * the request itself would build a stream); under app.request(), the Request's own body.
 */
const hasBody = (c: Context) => {
  const length = c.req.header('content-length')
  if (length !== undefined) return length.trim() !== '0'
  if (c.req.header('transfer-encoding') !== undefined) return true
  return !(c.env as AppEnv['Bindings'] | undefined)?.incoming && c.req.raw.body !== null
}

const unreadBodyNote = (type: string | undefined) =>
  `The body was not read as JSON: ${type ? `its Content-Type is ${JSON.stringify(type.slice(0, 100))}` : 'the request has no Content-Type header'}, and Novu's body parser reads only application/json, so the body counted as empty. Send the header Content-Type: application/json.`

async function readJson(c: Context<AppEnv>, shared: boolean) {
  const generation = c.get('generation')
  const limit = bodyLimitFor(c.req.path, generation)
  const text = await readText(c.req.raw, limit, generation.payloadTooLarge)
  c.set('rawBody', text)
  c.set('body', shared ? parsedOnce(text) : parseJson(text))
}

/** A body parsed once per text sent again (text-memo.ts), frozen, for routes that share it. */
function parsedOnce(text: string): unknown {
  const memo = textMemo(text)
  return memo ? memo.parsed(() => parseJson(text)) : parseJson(text)
}
