import { serve, type ServerType } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMock, type Mock } from './mock.js'
import type { MockOptionsInput } from './config.js'
import { loadFaker } from './fixtures/faker.js'
import { createAdminClient } from './admin/client.js'
import { hardenServer } from './http/client-errors.js'

export interface RunningMock extends Mock {
  url: string
  port: number
  server: ServerType
  /** Stops accepting connections and resolves once in-flight requests have finished. A second call does nothing. */
  close(): Promise<void>
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
    s.once('error', reject)
  })
  hardenServer(
    server as Server,
    () => mock.state.now(),
    () => mock.state.generation()
  )
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
        // Event streams and held requests would keep the server open: they end now.
        mock.state.events.emit({ type: 'closing' })
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
