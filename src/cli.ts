#!/usr/bin/env node
import type { Server } from 'node:http'
import { VERSION } from './admin/version.js'
import { ADMIN_PREFIX } from './admin/admin-auth.js'
import { helpText, parseCliOptions, UsageError } from './cli-options.js'
import { NOVU_ROUTES } from './novu-routes.js'
import { startMock, type RunningMock } from './server.js'

const SHUTDOWN_GRACE_MS = 3000

function banner(mock: RunningMock): string {
  const { scenario, environments } = mock.state
  const routes = NOVU_ROUTES.filter((r) => !r.path.startsWith('/v1/notification-templates')).map(
    (r) => `  ${r.method.padEnd(7)}${r.path}`
  )
  return [
    `novu-mock ${VERSION} listening on ${mock.url}`,
    `answering as Novu ${mock.state.generation().name}: ${mock.state.generation().description} (--api-generation to change)`,
    `scenario "${scenario.name}", seed ${environments.source.seed}; every ApiKey gets its own environment`,
    'Routes (also under /v1/notification-templates for the workflow ones):',
    ...routes,
    `Admin: ${mock.url}${ADMIN_PREFIX} (health, scenarios, reset, state, rules, latency, requests, openapi.json)`,
    '',
  ].join('\n')
}

/** Stops taking connections, lets in-flight requests finish, then exits 0; a second signal or the grace period ends it sooner. */
function stopOnSignals(mock: RunningMock) {
  let stopping = false
  const stop = () => {
    if (stopping) process.exit(0)
    stopping = true
    setTimeout(() => {
      ;(mock.server as Server).closeAllConnections()
      process.exit(0)
    }, SHUTDOWN_GRACE_MS).unref()
    void mock.close().then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'replay') {
    const { replayCommand } = await import('./replay/index.js')
    return replayCommand(argv.slice(1))
  }
  const { options, help, version } = parseCliOptions(argv, process.env)
  if (help || version) {
    process.stdout.write(help ? helpText(VERSION) : `${VERSION}\n`)
    return 0
  }
  const mock = await startMock(options)
  process.stdout.write(banner(mock))
  stopOnSignals(mock)
  return -1
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code
  },
  (error: unknown) => {
    const usage = error instanceof UsageError
    process.stderr.write(
      `novu-mock: ${(error as Error).message}\n${usage ? 'Try novu-mock --help.\n' : ''}`
    )
    process.exitCode = usage ? 2 : 1
  }
)
