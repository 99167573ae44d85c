#!/usr/bin/env node
import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import { VERSION } from './admin/version.js'
import { ADMIN_PREFIX } from './admin/admin-auth.js'
import { CLI_IDLE_GC_MS, helpText, parseCliOptions, UsageError } from './cli-options.js'
import { NOVU_ROUTES } from './novu-routes.js'
import { startMock, type RunningMock } from './server.js'
import { ScenarioError } from './scenarios/loader.js'
import { describeScenarioError } from './scenarios/scenario-file.js'

const SHUTDOWN_GRACE_MS = 3000

/** Docker writes /.dockerenv, Podman /run/.containerenv. */
const inContainer = () => existsSync('/.dockerenv') || existsSync('/run/.containerenv')

function reachableUrl(mock: RunningMock): string {
  const { host } = mock.state.options
  if (host === '0.0.0.0') return `http://127.0.0.1:${mock.port}`
  if (host === '::') return `http://[::1]:${mock.port}`
  return mock.url
}

function banner(mock: RunningMock): string {
  const { scenario, environments } = mock.state
  const generation = mock.state.generation()
  const served = NOVU_ROUTES.filter((r) => !r.existsIn || r.existsIn(generation))
  const routes = served
    .filter((r) => !r.path.startsWith('/v1/notification-templates'))
    .map((r) => `  ${r.method.padEnd(7)}${r.path}`)
  // Every interface: the URL this machine reaches it by (0.0.0.0 is no address to send to).
  const local = reachableUrl(mock)
  const admin = `${local}${ADMIN_PREFIX}`
  return [
    `novu-mock ${VERSION} listening on ${mock.url}${local === mock.url ? '' : ` (from this machine: ${local})`}`,
    // -e PORT=5000 with -p 4000:4000 looks healthy inside and answers nothing outside.
    ...(inContainer()
      ? [
          `in a container: publish this port, docker run -p HOST_PORT:${mock.port} (PORT sets the port inside)`,
        ]
      : []),
    `answering as Novu ${mock.state.generation().name}: ${mock.state.generation().description} (--api-generation to change)`,
    `scenario "${scenario.name}", seed ${environments.source.seed}; every ApiKey gets its own environment`,
    'Routes (also under /v1/notification-templates for the workflow ones):',
    ...routes,
    `Admin API: ${admin}/health, ${admin}/requests, ${admin}/rules, ${admin}/scenarios (all of them: ${admin}/openapi.json)`,
    `Dashboard: ${admin}/ui (what was sent, the journal, environments, chaos rules)`,
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
  if (argv[0] === 'capture') {
    const { captureCommand } = await import('./capture/index.js')
    return captureCommand(argv.slice(1))
  }
  if (argv[0] === 'replay') {
    const { replayCommand } = await import('./replay/index.js')
    return replayCommand(argv.slice(1))
  }
  const { options, help, version } = parseCliOptions(argv, process.env)
  if (help || version) {
    process.stdout.write(help ? helpText(VERSION) : `${VERSION}\n`)
    return 0
  }
  let mock: RunningMock
  try {
    mock = await startMock({ idleGcMs: CLI_IDLE_GC_MS, ...options })
  } catch (error) {
    // Errors of a file name it already; the others (an unknown fixture, say) get the scenario's name.
    if (
      error instanceof ScenarioError &&
      !/scenario file|scenarios folder|^Unknown scenario/.test(error.message)
    )
      throw new ScenarioError(
        `scenario "${options.scenario ?? 'default'}": ${describeScenarioError(error)}`
      )
    throw error
  }
  // The banner is info; warn and error keep its first line (where it listens); silent, nothing.
  const { logger } = mock.state
  if (logger.enabled('info')) process.stdout.write(banner(mock))
  else if (logger.enabled('error')) process.stdout.write(`${banner(mock).split('\n')[0]}\n`)
  stopOnSignals(mock)
  return -1
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code
  },
  (error: unknown) => {
    const usage = error instanceof UsageError
    // A bad scenario file is a configuration error too: the file, each field path, line and column.
    const scenario = error instanceof ScenarioError
    const message = !scenario
      ? (error as Error).message
      : error.message.startsWith('Unknown scenario')
        ? `cannot start: ${error.message}`
        : `cannot start: ${describeScenarioError(error)}`
    process.stderr.write(`novu-mock: ${message}\n${usage ? 'Try novu-mock --help.\n' : ''}`)
    process.exitCode = usage || scenario ? 2 : 1
  }
)
