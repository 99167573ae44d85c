import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { httpError, REASON } from '../errors.js'
import type { Generation } from '../generations/generation.js'
import { retarget } from './request-target.js'

/** How long a client may take to send its headers, and its whole request. */
const HEADERS_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000
const KEEP_ALIVE_TIMEOUT_MS = 5_000

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_URI_TOO_LONG: 414,
}

const settled = (res: ServerResponse) => res.writableFinished || res.destroyed

const whenSettled = (res: ServerResponse) =>
  settled(res)
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        res.once('finish', resolve)
        res.once('close', resolve)
      })

/**
 * Sets the server's timeouts, and answers what never reaches the app in upstream's error shape
 * instead of Node's bare status line or silence: requests Node's parser refuses (headers or URL
 * too large, malformed HTTP, too slow) and CONNECT. Responses owed to requests pipelined before
 * the refused one are sent first: a refusal written straight away would overtake them.
 */
export function hardenServer(server: Server, now: () => Date, generation: () => Generation) {
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS

  /**
   * Each connection's responses in request order, the order Node sends them in; settled ones
   * are dropped as the next request arrives.
   */
  const owed = new WeakMap<Socket, ServerResponse[]>()
  /** Connections already refused: a parser error or a timeout may be reported more than once. */
  const refused = new WeakSet<Socket>()

  /** The whole refusal, head and body: the one place a raw-socket answer is built. */
  const refusal = (status: number, path: string, message?: string) => {
    const reason = REASON[status] ?? 'Bad Request'
    const error = httpError(status, message ?? reason)
    const body = JSON.stringify(generation().errors.render(error, path, now().toISOString()).body)
    return (
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  }

  /**
   * Answers once the earlier responses are out, then closes. The request still being read, if
   * any, is the refused one.
   */
  const refuse = async (socket: Socket, status: number, path: string, message?: string) => {
    if (refused.has(socket)) return
    refused.add(socket)
    const queue = owed.get(socket) ?? []
    await Promise.all(queue.filter((res) => res.req.complete && !settled(res)).map(whenSettled))
    // The app may have answered the refused request before its body broke off: that answer
    // stands alone. If it answers later still, its bytes meet a closed connection.
    const current = queue.find((res) => !res.req.complete)
    const answered = current !== undefined && (current.headersSent || current.writableFinished)
    if (answered) await whenSettled(current)
    if (!socket.writable || answered) {
      socket.destroySoon()
      return
    }
    socket.end(refusal(status, path, message))
    // Read on until the client closes, so that unread bytes cannot reset the connection and
    // lose the answer; a client that never closes loses the connection later.
    socket.resume()
    socket.setTimeout(KEEP_ALIVE_TIMEOUT_MS, () => socket.destroy())
  }

  /**
   * A response leaves its queue once sent: kept until its connection's next request, the last
   * response of each keep-alive connection (its request, their headers) outlived the young
   * generation, which a busy mock then grew to its largest. An answer given before its request
   * was read in full stays, for `refuse` to find.
   */
  function sent(this: ServerResponse) {
    if (!this.req.complete) return
    const queue = owed.get(this.req.socket)
    const at = queue === undefined ? -1 : queue.indexOf(this)
    if (at >= 0) queue?.splice(at, 1)
  }

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    retarget(req)
    res.on('close', sent)
    const queue = owed.get(req.socket)
    if (queue === undefined) owed.set(req.socket, [res])
    else {
      while (queue[0] !== undefined && settled(queue[0])) queue.shift()
      queue.push(res)
    }
  })

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    void refuse(socket, STATUS_BY_CODE[error.code ?? ''] ?? 400, '/')
  })

  // Node closes a CONNECT unanswered without a listener; Express would say it has no such route.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // Node has handed the socket over: its error and drain listeners are gone with it.
    socket.on('error', () => socket.destroy())
    socket.on('drain', () =>
      owed
        .get(socket)
        ?.find((res) => !settled(res))
        ?.emit('drain')
    )
    const target = req.url ?? ''
    void refuse(socket, 404, target, `Cannot CONNECT ${target}`)
  })
}
