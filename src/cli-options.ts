import { parseArgs } from 'node:util'
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  LOG_LEVELS,
  MockOptionsSchema,
  type MockOptionsInput,
} from './config.js'
import { replayOptionRows, unknownFlagMessage } from './replay/usage.js'
import { captureOptionRows } from './capture/usage.js'
import { DEFAULT_MAX_MEMORY_MB } from './memory/budget.js'
import { DEFAULT_GENERATION, GENERATION_NAMES } from './generations/generation.js'
import { CHECKED_ONCE } from './zod-issues.js'

/** The CLI's process is the mock's own: it gives memory back after 30 s without a request. */
export const CLI_IDLE_GC_MS = 30_000

/** Each flag, its environment variable, and how --help shows it. */
const FLAGS = [
  {
    flag: 'port',
    env: 'PORT',
    arg: 'N',
    help: `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})`,
  },
  {
    flag: 'host',
    env: 'HOST',
    arg: 'ADDR',
    help: `address to listen on (default ${DEFAULT_HOST}; 0.0.0.0 to expose it)`,
  },
  {
    flag: 'seed',
    env: 'SEED',
    arg: 'S',
    help: `seed of every generated id and record (default ${DEFAULT_SEED})`,
  },
  {
    flag: 'scenario',
    env: 'SCENARIO',
    arg: 'NAME|FILE',
    help: 'scenario to load at start (default default)',
  },
  {
    flag: 'scenarios-dir',
    env: 'SCENARIOS_DIR',
    arg: 'DIR',
    help: 'folder of your own scenarios: .json, .yaml, .yml files, named by file name',
  },
  {
    flag: 'latency',
    env: 'LATENCY',
    arg: 'MS',
    help: 'latency added to every Novu route (default 0)',
  },
  {
    flag: 'journal-size',
    env: 'JOURNAL_SIZE',
    arg: 'N',
    help: 'requests kept in the journal (default 1000; 0 turns it off)',
  },
  {
    flag: 'admin-token',
    env: 'ADMIN_TOKEN',
    arg: 'T',
    help: 'require "Authorization: Bearer T" on /__admin routes',
  },
  {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    arg: 'L',
    help: `${LOG_LEVELS.join('|')}; debug logs one JSON line per request (default info)`,
  },
  {
    flag: 'api-generation',
    env: 'API_GENERATION',
    arg: 'G',
    help: `which Novu server to answer as: ${GENERATION_NAMES.join('|')} (default ${DEFAULT_GENERATION})`,
  },
  {
    flag: 'max-workflows',
    env: 'MAX_WORKFLOWS',
    arg: 'N',
    help: 'workflows per environment, 2026-08 only (default 100, as upstream; 0 lifts it)',
  },
  {
    flag: 'max-environments',
    env: 'MAX_ENVIRONMENTS',
    arg: 'N',
    help: 'API keys (environments) held at once (default 10000)',
  },
  {
    flag: 'max-memory-mb',
    env: 'MAX_MEMORY_MB',
    arg: 'MB',
    help: `memory for environments, imports, rules and the journal (default ${DEFAULT_MAX_MEMORY_MB})`,
  },
  {
    flag: 'unknown-workflows',
    env: 'UNKNOWN_WORKFLOWS',
    arg: 'MODE',
    help: "create: triggers create unknown workflows, noted in the journal (the mock's own; default reject)",
  },
  {
    flag: 'idle-gc-ms',
    env: 'IDLE_GC_MS',
    arg: 'MS',
    help: `after MS without a request, give the memory a load grew back to the system; hold V8's young generation small but under writes (default ${CLI_IDLE_GC_MS}; 0 turns both off)`,
  },
  {
    flag: 'caches',
    env: 'NOVU_MOCK_CACHES',
    arg: 'on|off',
    help: 'off turns every cache of the process off, off:NAME,NAME those alone: answers stay the same (default on)',
  },
] as const

type Flag = (typeof FLAGS)[number]['flag']
const NUMERIC = new Set<Flag>([
  'port',
  'latency',
  'journal-size',
  'max-environments',
  'max-workflows',
  'max-memory-mb',
  'idle-gc-ms',
])

export class UsageError extends Error {}

export function helpText(version: string): string {
  const rows = FLAGS.map(
    ({ flag, env, arg, help }) => `  --${`${flag} ${arg}`.padEnd(26)} ${env.padEnd(17)} ${help}`
  )
  return [
    `novu-mock ${version}: an offline simulator of the Novu API`,
    '',
    'Usage:',
    '  novu-mock [options]                       start the mock',
    '  novu-mock replay SCRIPT --target URL      replay a script against a mock or the real service',
    '  novu-mock capture --out FILE [--from URL] capture a Novu environment into a scenario file',
    '',
    `Options (flag, environment variable, meaning; a flag wins over its variable):`,
    ...rows,
    `  --${'help'.padEnd(26)} ${''.padEnd(17)} show this help`,
    `  --${'version'.padEnd(26)} ${''.padEnd(17)} show the version`,
    '',
    'Replay options (novu-mock replay SCRIPT --target URL [options]; novu-mock replay --help):',
    ...replayOptionRows(29),
    '',
    'Capture options (novu-mock capture --out FILE [options]; novu-mock capture --help):',
    ...captureOptionRows(29),
    '',
    'Exit codes: 0 stopped by SIGTERM or SIGINT; 2 bad options or scenario files; 1 anything else.',
    '',
  ].join('\n')
}

const camel = (flag: string) => flag.replace(/-(.)/g, (_, ch: string) => ch.toUpperCase())

/** `--port` when the flag gave the value, `PORT` when the environment did. */
type Source = string

function toNumber(source: Source, raw: string): number {
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`${source} must be a number, got "${raw}"`)
  return value
}

const KNOWN_FLAGS = [...FLAGS.map(({ flag }) => flag), 'help', 'version']

/** Flags first, then environment variables, then the defaults of MockOptionsSchema. */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(FLAGS.map(({ flag }) => [flag, { type: 'string' as const }])),
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    })
  } catch (error) {
    throw new UsageError(unknownFlagMessage(argv, KNOWN_FLAGS) ?? (error as Error).message)
  }
  const values = parsed.values as Record<string, string | boolean | undefined>
  const options: Record<string, unknown> = {}
  const sources = new Map<string, Source>()
  for (const { flag, env: name } of FLAGS) {
    const fromFlag = values[flag] as string | undefined
    const raw = fromFlag ?? (env[name] || undefined)
    if (raw === undefined) continue
    const source = fromFlag !== undefined ? `--${flag}` : name
    sources.set(camel(flag), source)
    options[camel(flag)] = NUMERIC.has(flag) ? toNumber(source, raw) : raw
  }
  // Checked here too, so that a bad value is reported as the flag or variable that gave it.
  const checked = MockOptionsSchema.safeParse(options, CHECKED_ONCE)
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '')
      return `${sources.get(key) ?? key}: ${issue.message}`
    })
    throw new UsageError(problems.join('; '))
  }
  return {
    options: options as MockOptionsInput,
    help: values.help === true,
    version: values.version === true,
  }
}
