import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { GENERATION_NAMES, type GenerationName } from '../generations/generation.js'
import { unknownFlagMessage } from '../replay/usage.js'
import { scenarioNameOf } from '../scenarios/scenario-file.js'
import { capture } from './capture.js'
import { CaptureError } from './client.js'
import { createProgress, type ProgressStream } from './progress.js'
import { PLACEHOLDER } from './redact.js'
import { CAPTURE_FLAG_NAMES, captureOptionRows, DEFAULT_CAPTURE_FROM } from './usage.js'
import { formatOf, scenarioText, writeScenarioFile } from './writer.js'

const CAPTURE_USAGE = `Usage: novu-mock capture --out FILE [options]

Reads a Novu environment through its API (workflows, notification groups, topics with their
subscribers, subscribers, tenants) and writes a scenario file the mock loads with
--scenario FILE (or by its name from --scenarios-dir). Secrets are replaced by placeholders.

Options:
${captureOptionRows().join('\n')}
  -h, --help           show this help

Exit codes: 0 written; 1 the server refused, could not be reached or answered what the capture
does not understand (nothing written); 2 usage error.
`

export interface CaptureIo {
  stdout: { write(text: string): unknown }
  stderr: ProgressStream
  env: NodeJS.ProcessEnv
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<void>
}

const OPTIONS = {
  out: { type: 'string' },
  from: { type: 'string' },
  key: { type: 'string' },
  'api-generation': { type: 'string' },
  subscribers: { type: 'string' },
  'no-subscribers': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

class UsageError extends Error {}

const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

function parse(argv: string[], env: NodeJS.ProcessEnv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(unknownFlagMessage(argv, CAPTURE_FLAG_NAMES) ?? (error as Error).message)
  }
  const { values } = parsed
  const extra =
    parsed.positionals[0] === 'capture' ? parsed.positionals.slice(1) : parsed.positionals
  if (values.help) return { help: true as const }
  if (extra.length) throw new UsageError(`unexpected: ${extra.join(' ')}`)
  if (!values.out) throw new UsageError('--out FILE is required, e.g. --out scenarios/mine.yaml')
  if (!/\.(ya?ml|json)$/i.test(values.out))
    throw new UsageError(`--out must end in .yaml, .yml or .json, got "${values.out}"`)
  const from = values.from ?? DEFAULT_CAPTURE_FROM
  if (!/^https?:\/\/[^/]/.test(from) || !URL.canParse(from))
    throw new UsageError(`--from must be an http(s) URL, got "${from}"`)
  // The URL is written into the file and printed: a password in it would be too.
  const url = new URL(from)
  if (url.username || url.password || url.search)
    throw new UsageError('--from takes the API base URL alone: no user, password or query')
  const key = values.key ?? (env.NOVU_SECRET_KEY || undefined)
  if (!key) throw new UsageError("give the environment's secret key: --key KEY, or NOVU_SECRET_KEY")
  const generation = values['api-generation']
  if (generation !== undefined && !(GENERATION_NAMES as readonly string[]).includes(generation))
    throw new UsageError(
      `--api-generation takes ${GENERATION_NAMES.join(' or ')}, got "${generation}"`
    )
  if (values.subscribers !== undefined && values['no-subscribers'])
    throw new UsageError('--subscribers N and --no-subscribers exclude each other')
  let subscribers: number | undefined = values['no-subscribers'] ? 0 : undefined
  if (values.subscribers !== undefined) {
    subscribers = Number(values.subscribers)
    if (!/^\d+$/.test(values.subscribers) || !Number.isSafeInteger(subscribers))
      throw new UsageError(`--subscribers takes a whole number, got "${values.subscribers}"`)
  }
  return {
    help: false as const,
    out: resolve(values.out),
    given: values.out,
    from,
    key,
    generation: generation as GenerationName | undefined,
    subscribers,
  }
}

const plural = (n: number, word: string) => `${n} ${word}`

/**
 * `novu-mock capture --out FILE …`: captures and resolves to the exit code (0 written, 1 the
 * capture failed and nothing was written, 2 usage error).
 */
export async function captureCommand(
  argv: string[],
  io: CaptureIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }
): Promise<number> {
  let args
  try {
    args = parse(argv, io.env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr.write(
      `novu-mock capture: ${error.message}\nRun "novu-mock capture --help" for the options.\n`
    )
    return 2
  }
  if (args.help) {
    io.stdout.write(CAPTURE_USAGE)
    return 0
  }
  const progress = createProgress(io.stderr)
  const name = scenarioNameOf(args.out)
  progress.note(`novu-mock capture: reading ${args.from.replace(/\/+$/, '')}`)
  let result
  try {
    result = await capture({
      baseUrl: args.from,
      apiKey: args.key,
      generation: args.generation,
      subscribers: args.subscribers,
      name: SCENARIO_NAME.test(name) ? name : undefined,
      progress,
      ...(io.fetch ? { fetch: io.fetch } : {}),
      ...(io.sleep ? { sleep: io.sleep } : {}),
    })
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error
    progress.note(`novu-mock capture: ${error.message}\nNothing was written.`)
    return 1
  }
  const { redaction } = result
  const header = [
    `Captured by novu-mock capture from ${args.from.replace(/\/+$/, '')} (Novu ${result.generation}).`,
    'Secrets are never written: API keys, tokens, passwords, credentials and webhook URLs',
    `are replaced by "${PLACEHOLDER}"${redaction.count ? ` (${plural(redaction.count, 'values')}: ${[...redaction.fields].sort().join(', ')})` : ' (none were found)'},`,
    "and subscribers' channel credentials are not captured.",
    `Load it with: novu-mock --scenario ${args.given}${name === scenarioNameOf(args.given) && SCENARIO_NAME.test(name) ? `, or --scenarios-dir ${dirname(args.given) || '.'} --scenario ${name}` : ''}`,
  ]
  const text = scenarioText(result.scenario, header, formatOf(args.out))
  try {
    await writeScenarioFile(args.out, text)
  } catch (error) {
    progress.note(`novu-mock capture: cannot write ${args.out}: ${(error as Error).message}`)
    return 1
  }
  const counts = Object.entries(result.counts)
    .map(([kind, count]) => plural(count, kind))
    .join(', ')
  io.stdout.write(
    `Captured ${counts} (Novu ${result.generation}) into ${args.given}${redaction.count ? `; ${plural(redaction.count, 'secret values')} replaced by placeholders` : ''}.\nRun the mock with it: npx novu-mock --scenario ${args.given}\n`
  )
  return 0
}
