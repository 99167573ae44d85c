import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { loadReplayScript, ReplayScriptError } from './load.js'
import { formatReport } from './report.js'
import { runReplay } from './runner.js'
import { REPLAY_FLAG_NAMES, replayOptionRows, unknownFlagMessage } from './usage.js'

const REPLAY_USAGE = `Usage: novu-mock replay SCRIPT --target URL [options]

Runs a replay script (YAML, or JSON by its .json extension) against a base URL, the mock's or
the real service's, and reports each step.

Options:
${replayOptionRows().join('\n')}
  -h, --help           show this help

Exit codes: 0 every step passed, 1 a step failed, 2 usage error or invalid script.
`

export interface CommandIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

const OPTIONS = {
  target: { type: 'string' },
  'api-key': { type: 'string' },
  'admin-token': { type: 'string' },
  'skip-admin': { type: 'boolean' },
  report: { type: 'string' },
  'report-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

class UsageError extends Error {}

function parse(argv: string[]) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(unknownFlagMessage(argv, REPLAY_FLAG_NAMES) ?? (error as Error).message)
  }
  const { values } = parsed
  // src/cli.ts may pass its argv whole, subcommand included.
  const positionals =
    parsed.positionals[0] === 'replay' ? parsed.positionals.slice(1) : parsed.positionals
  if (values.help) return { help: true as const }
  const [script, ...extra] = positionals
  if (!script) throw new UsageError('give the script to run: novu-mock replay SCRIPT --target URL')
  if (extra.length) throw new UsageError(`one script at a time; unexpected: ${extra.join(' ')}`)
  if (!values.target)
    throw new UsageError('--target URL is required, e.g. --target http://127.0.0.1:4000')
  if (!/^https?:\/\/[^/]/.test(values.target) || !URL.canParse(values.target))
    throw new UsageError(`--target must be an http(s) URL, got "${values.target}"`)
  if (values.report !== undefined && values.report !== 'json' && values.report !== 'text')
    throw new UsageError(`--report takes "json" or "text", got "${values.report}"`)
  return { help: false as const, script, ...values, target: values.target }
}

/**
 * `novu-mock replay SCRIPT --target URL …`: runs the script and resolves to the exit code
 * (0 all passed, 1 a step failed, 2 usage error or invalid script).
 *
 * @example
 * process.exitCode = await replayCommand(process.argv.slice(3))
 */
export async function replayCommand(
  argv: string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr }
): Promise<number> {
  let args
  try {
    args = parse(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr.write(
      `novu-mock replay: ${error.message}\nRun "novu-mock replay --help" for the options.\n`
    )
    return 2
  }
  if (args.help) {
    io.stdout.write(REPLAY_USAGE)
    return 0
  }
  let script
  try {
    script = await loadReplayScript(args.script)
  } catch (error) {
    if (!(error instanceof ReplayScriptError)) throw error
    io.stderr.write(`novu-mock replay: ${error.message}\n`)
    return 2
  }
  const report = await runReplay(script, {
    target: args.target,
    apiKey: args['api-key'],
    adminToken: args['admin-token'],
    skipAdmin: args['skip-admin'] ?? false,
  })
  const json = `${JSON.stringify(report, null, 2)}\n`
  const file = args['report-file']
  io.stdout.write(args.report === 'json' && !file ? json : `${formatReport(report)}\n`)
  if (file) {
    try {
      await writeFile(file, json)
    } catch (error) {
      io.stderr.write(`novu-mock replay: cannot write the report: ${(error as Error).message}\n`)
      return 2
    }
  }
  return report.failed > 0 ? 1 : 0
}
