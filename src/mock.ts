import type { Hono } from 'hono'
import type { AppEnv } from './app-env.js'
import { createApp } from './app.js'
import { parseOptions, type MockOptionsInput } from './config.js'
import { createState, type MockState } from './state.js'
import { createAdminClient, type AdminClient } from './admin/client.js'

export interface Mock {
  app: Hono<AppEnv>
  /**
   * The mock's internals, for its own tests and CLI: not part of the public API (left out of the
   * published types), so they can change without notice. Use `admin` instead.
   * @internal
   */
  state: MockState
  /** A fetch-style handler, for any server or test harness. */
  fetch: (request: Request) => Response | Promise<Response>
  /** The control plane, called in process. */
  admin: AdminClient
}

/**
 * Builds the mock's state and its Hono app, without a socket.
 *
 * @example
 * const { app } = createMock({ seed: 1 })
 * const res = await app.request('/v1/topics', { headers: { Authorization: 'ApiKey test' } })
 */
export function createMock(input: MockOptionsInput = {}): Mock {
  const state = createState(parseOptions(input))
  const app = createApp(state)
  const admin = createAdminClient({
    baseUrl: 'http://novu-mock.local',
    token: state.options.adminToken,
    fetch: async (input, init) => app.request(input, init),
  })
  return { app, state, fetch: (request) => app.fetch(request), admin }
}
