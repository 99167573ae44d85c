import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { ReplayScriptSchema, type ReplayScript } from './schema.js'
import { issueProblems } from '../zod-issues.js'

export interface ReplayScriptProblem {
  /** Where in the script, dotted: `steps.2.request.method`; empty for the whole file. */
  path: string
  message: string
}

/** A script that cannot be read or is not valid; `problems` lists every issue with its path. */
export class ReplayScriptError extends Error {
  constructor(
    readonly source: string,
    readonly problems: ReplayScriptProblem[],
    heading = 'is not a valid replay script'
  ) {
    const lines = problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`)
    super(`${source} ${heading}:\n${lines.join('\n')}`)
    this.name = 'ReplayScriptError'
  }
}

/** Validates a parsed script whole, so every problem shows at once. */
export function parseReplayScript(raw: unknown, source = 'the script'): ReplayScript {
  const result = ReplayScriptSchema.safeParse(raw)
  if (result.success) return result.data
  throw new ReplayScriptError(source, issueProblems(result.error.issues))
}

/** `.json` is read as JSON; anything else as YAML (of which JSON is a subset anyway). */
function parseText(text: string, file: string): unknown {
  const json = extname(file).toLowerCase() === '.json'
  try {
    return json ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    const message = (error as Error).message
    throw new ReplayScriptError(
      file,
      [{ path: '', message }],
      `is not valid ${json ? 'JSON' : 'YAML'}`
    )
  }
}

/**
 * Reads and validates a replay script file (YAML, or JSON by its `.json` extension).
 *
 * @example
 * const script = await loadReplayScript('scenarios/scripts/onboarding.yaml')
 */
export async function loadReplayScript(file: string): Promise<ReplayScript> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message = code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new ReplayScriptError(file, [{ path: '', message }], 'cannot be read')
  }
  return parseReplayScript(parseText(text, file), file)
}
