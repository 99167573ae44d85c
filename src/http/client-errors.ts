import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorBody, REASON } from '../errors.js'

/** How long a client may take to send its headers, and its whole request. */
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000
export const KEEP_ALIVE_TIMEOUT_MS = 5_000

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_URI_TOO_LONG: 414,
}

/**
 * Sets the server's timeouts, and answers requests Node's parser refuses before the app sees
 * them (headers or URL too large, malformed HTTP, too slow) in upstream's error shape instead of
 * Node's bare status line.
 */
export function hardenServer(server: Server, now: () => Date) {
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const status = STATUS_BY_CODE[error.code ?? ''] ?? 400
    const reason = REASON[status] ?? 'Bad Request'
    const body = JSON.stringify(
      errorBody(status, '/', now().toISOString(), { message: reason, error: reason })
    )
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  })
}
