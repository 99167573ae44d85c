#!/usr/bin/env node
import { startMock } from './server.js'

const env = process.env
const mock = await startMock({
  port: env.PORT ? Number(env.PORT) : undefined,
  host: env.HOST || undefined,
  seed: env.SEED || undefined,
  scenario: env.SCENARIO || undefined,
  scenariosDir: env.SCENARIOS_DIR || undefined,
})
process.stdout.write(`novu-mock listening on ${mock.url}\n`)
const stop = () => void mock.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
