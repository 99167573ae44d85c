import { serve, type ServerType } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMock, type Mock } from './mock.js'
import type { MockOptionsInput } from './config.js'
import { loadFaker } from './fixtures/faker.js'
import { createAdminClient } from './admin/client.js'
import { hardenServer } from './http/client-errors.js'
import { giveBackWhenIdle } from './memory/give-back.js'
import { holdYoungGeneration } from './memory/young-generation.js'

export interface RunningMock extends Mock {
  url: string
  port: number
  server: ServerType
  /** Stops accepting connections and resolves once in-flight requests have finished. A second call does nothing. */
  close(): Promise<void>
}

/** Node's listen failures in words that name the port and what to do; the code is kept. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `port ${port} on ${host}`
  const advice =
    error.code === 'EADDRINUSE'
      ? `${where} is already in use (another novu-mock, or another server): stop it, or pick another port; --port 0 (startMock({ port: 0 })) takes a free one and prints it`
      : error.code === 'EACCES'
        ? `${where} needs privileges this process lacks (ports under 1024 do): pick a port from 1024 up, or --port 0 for a free one`
        : error.code === 'EADDRNOTAVAIL'
          ? `${host} is no address of this machine: listen on 127.0.0.1, or 0.0.0.0 for every interface (--host)`
          : undefined
  if (!advice) return error
  return Object.assign(new Error(`cannot listen: ${advice}`, { cause: error }), {
    code: error.code,
  })
}

/**
 * Starts the mock on a port (0 picks a free one) and resolves once it listens.
 *
 * @example
 * const mock = await startMock({ port: 0 })
 * await fetch(`${mock.url}/v1/topics`, { headers: { Authorization: 'ApiKey test' } })
 * await mock.close()
 */
export async function startMock(input: MockOptionsInput = {}): Promise<RunningMock> {
  const mock = createMock(input)
  const { host, port } = mock.state.options
  void loadFaker()
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: mock.app.fetch, hostname: host, port }, () => resolve(s))
    s.once('error', (error) => reject(listenError(error, host, port)))
  })
  hardenServer(
    server as Server,
    () => mock.state.now(),
    () => mock.state.generation()
  )
  const stored = () => mock.state.environments.budget.used()
  const { idleGcMs = 0 } = mock.state.options
  const stopGivingBack = giveBackWhenIdle(server as Server, idleGcMs, mock.state.logger, stored)
  // A process-wide setting, as the collections above: for a process that is the mock's alone.
  const stopHoldingYoungGeneration =
    idleGcMs > 0 ? holdYoungGeneration(server as Server, mock.state.logger) : () => {}
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  let closing: Promise<void> | undefined
  const url = `http://${shownHost}:${address.port}`
  return {
    ...mock,
    admin: createAdminClient({ baseUrl: url, token: mock.state.options.adminToken }),
    server,
    port: address.port,
    url,
    close() {
      closing ??= new Promise<void>((resolve) => {
        stopGivingBack()
        stopHoldingYoungGeneration()
        // Event streams and held requests would keep the server open: they end now.
        mock.state.events.emit({ type: 'closing' })
        // Webhook attempts in flight (a hung handler holds one for 15 s) end now.
        mock.state.webhooks.close()
        const http = server as Server
        // A keep-alive connection goes idle once its in-flight response is sent: close it then.
        const sweep = setInterval(() => http.closeIdleConnections(), 25)
        http.close(() => {
          clearInterval(sweep)
          resolve()
        })
        http.closeIdleConnections()
      })
      return closing
    },
  }
}
