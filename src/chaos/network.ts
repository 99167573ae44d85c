import type { Context } from 'hono'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { AppEnv } from '../app-env.js'
import { httpError } from '../errors.js'
import { malformed, slowBody } from './faults.js'
import { MAX_DELAY_MS, type NetworkFault } from './rules.schemas.js'

const HANG_CHECK_MS = 100

/**
 * Holds the socket open without answering until the client leaves, the server closes, or
 * MAX_DELAY_MS passes. One unref'd interval per hang watches for the last two; it is cleared when
 * the socket closes, so nothing outlives the connection or keeps `server.close()` waiting.
 */
function hang(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve()
    // Node sets `server` on every socket a server accepts; close() flips `listening` at once,
    // while its 'close' event would wait for this very connection.
    const server = (socket as Socket & { server?: Server }).server
    const started = Date.now()
    const watch = setInterval(() => {
      if (server?.listening === false || Date.now() - started >= MAX_DELAY_MS) socket.destroy()
    }, HANG_CHECK_MS)
    watch.unref()
    socket.once('close', () => {
      clearInterval(watch)
      resolve()
    })
  })
}

/**
 * Applies a network fault. `reset`, `empty` and `hang` act on the Node socket and answer nothing
 * (RESPONSE_ALREADY_SENT tells @hono/node-server not to write). Under `app.request()` there is no
 * socket: they answer a 500 in the Novu error shape that says so, rather than pretend.
 * `malformed` and `slow-body` are plain responses and work everywhere; `slow-body` sends what
 * `rest` (the request's remaining steps) answered.
 */
export async function networkFault(
  c: Context<AppEnv>,
  fault: NetworkFault,
  rest: () => Response | Promise<Response>
): Promise<Response> {
  const kind = fault.network
  if (kind === 'malformed' || kind === 'slow-body') {
    c.set('fault', kind)
    if (kind === 'malformed') return malformed(c)
    return slowBody(await rest(), fault)
  }
  const socket = c.env?.incoming?.socket
  if (!socket)
    throw httpError(
      500,
      `The "${kind}" network fault needs a real socket: start the mock with startMock() or the CLI (app.request() has none).`
    )
  c.set('fault', kind)
  if (kind === 'reset') socket.resetAndDestroy()
  else if (kind === 'empty') socket.destroySoon()
  else await hang(socket)
  return RESPONSE_ALREADY_SENT
}
