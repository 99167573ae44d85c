import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, extname, resolve } from 'node:path'
import type { z } from 'zod'
import {
  listScenarioFiles,
  parseScenarioText,
  readScenarioFile,
  ScenarioError,
  type ScenarioProblem,
} from './loader.js'
import { ScenarioSchema, type Scenario } from './schema.js'
import { isObj } from '../objects.js'
import { CHECKED_ONCE } from '../zod-issues.js'
import { provenValue } from './proven.js'

/**
 * The rules of a scenario file, one place for the CLI, the container and the admin API:
 * - its name is its file name without the extension (`my-scenarios/checkout.yaml` is `checkout`);
 *   `name:` may be left out, and a `name:` that differs is an error naming both;
 * - a problem names the file, the field's path and, where the text has it, its line and column
 *   (YAML and JSON alike).
 */

/** The name a file gives its scenario: `checkout.yaml` → `checkout`. */
export const scenarioNameOf = (file: string) => basename(file, extname(file))

/** `data.topics.0.key (line 4, column 12): message`, as every report shows a problem. */
function formatProblem(problem: ScenarioProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message
}

/** The error's message with one indented line per problem, for the CLI and for thrown errors. */
export function describeScenarioError(error: ScenarioError): string {
  const lines = error.problems.map((p) => `  ${formatProblem(p)}`)
  return lines.length && !error.message.includes('\n')
    ? `${error.message}:\n${lines.join('\n')}`
    : error.message
}

/** A ScenarioError whose message already lists its problems, so a bare `error.message` tells all. */
const fullError = (heading: string, problems: ScenarioProblem[]) =>
  new ScenarioError(describeScenarioError(new ScenarioError(heading, problems)), problems)

const SHOWN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

// The YAML parser is loaded only when a file has problems to place.
const requireLazily = createRequire(import.meta.url)

interface Located {
  line: number
  column: number
}

/** Finds where a path points in a YAML (or JSON) text: the value, else its key, else the nearest parent. */
type Locator = (path: PropertyKey[], atKey?: boolean) => Located | undefined

function positionFinder(text: string): Locator | undefined {
  let yaml: typeof import('yaml')
  try {
    yaml = requireLazily('yaml') as typeof import('yaml')
  } catch {
    return undefined
  }
  const lineCounter = new yaml.LineCounter()
  const doc = yaml.parseDocument(text, { lineCounter, keepSourceTokens: false })
  if (doc.errors.length) return undefined
  const at = (offset: number | undefined): Located | undefined => {
    if (offset === undefined) return undefined
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }
  return (path, atKey = false) => {
    let node: unknown = doc.contents
    let found: Located | undefined = at((node as { range?: number[] })?.range?.[0])
    for (const [i, segment] of path.entries()) {
      if (yaml.isMap(node)) {
        const pair = node.items.find(
          (item) => yaml.isScalar(item.key) && String(item.key.value) === String(segment)
        )
        if (!pair) break
        const key = pair.key as { range?: number[] }
        if (atKey && i === path.length - 1) return at(key.range?.[0]) ?? found
        node = pair.value
        found = at((node as { range?: number[] } | null)?.range?.[0]) ?? at(key.range?.[0]) ?? found
      } else if (yaml.isSeq(node)) {
        const item = node.items[Number(segment)]
        if (item === undefined) break
        node = item
        found = at((node as { range?: number[] } | null)?.range?.[0]) ?? found
      } else break
    }
    return found
  }
}

/** One problem per zod issue; an unknown key is placed at the key itself. */
function problemsOf(issues: z.core.$ZodIssue[], locate: Locator | undefined): ScenarioProblem[] {
  return issues.flatMap((issue) => {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path]
    return paths.map((path) => {
      const where = locate?.(path, issue.code === 'unrecognized_keys')
      const shown = path.map(String).join('.')
      const position = where ? ` (line ${where.line}, column ${where.column})` : ''
      const message =
        issue.code === 'unrecognized_keys'
          ? `unknown field "${String(path.at(-1))}"`
          : issue.message
      return { path: `${shown}${position}`, message }
    })
  })
}

/**
 * A scenario file's text parsed and validated whole. Every error names the file; every
 * validation problem its path, with the line and column where the text has them.
 */
export function loadScenarioText(file: string, text: string, format: 'yaml' | 'json'): Scenario {
  return (provenValue(file, text) as Scenario | undefined) ?? checkScenarioText(file, text, format)
}

/** The check itself, whatever file the text comes from (scripts/prove-built-ins.mjs runs it too). */
export function checkScenarioText(file: string, text: string, format: 'yaml' | 'json'): Scenario {
  const heading = `the scenario file ${file} is not valid`
  let raw: unknown
  try {
    raw = parseScenarioText(text, format)
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    throw fullError(`${heading} ${format.toUpperCase()}`, error.problems)
  }
  const name = scenarioNameOf(file)
  const named = isObj(raw) && raw.name === undefined ? { ...raw, name } : raw
  const result = ScenarioSchema.safeParse(named, CHECKED_ONCE)
  const issues = result.success ? [] : [...result.error.issues]
  const declared = isObj(raw) ? raw.name : undefined
  const differs = declared !== undefined && declared !== name
  if (!result.success || differs) {
    const locate = positionFinder(text)
    const problems = problemsOf(issues, locate).map((p) =>
      named !== raw && p.path.split(' ')[0] === 'name'
        ? { ...p, message: `the file name "${name}" is not a scenario name: ${p.message}` }
        : p
    )
    if (differs) {
      const where = locate?.(['name'])
      problems.unshift({
        path: `name${where ? ` (line ${where.line}, column ${where.column})` : ''}`,
        // The value is quoted only when it looks like a name: a report never quotes file content.
        message: `${SHOWN_NAME.test(String(declared)) ? `"${String(declared)}"` : 'it'} is not the file name "${name}": a scenario file is named by its file name, so rename the file or leave name: out`,
      })
    }
    throw fullError(heading, problems)
  }
  return (result as { data: Scenario }).data
}

/**
 * Checks a --scenarios-dir folder at start-up: it must exist, and each of its `.json`, `.yaml`
 * and `.yml` files must be a valid scenario (other files are ignored). One error lists every
 * bad file with its problems.
 */
export function checkScenarioDir(dir: string): void {
  const full = resolve(dir)
  let isDir = false
  try {
    isDir = statSync(full).isDirectory()
  } catch {
    isDir = false
  }
  if (!isDir)
    throw new ScenarioError(
      `the scenarios folder ${full} (--scenarios-dir, SCENARIOS_DIR) ${isDirMissing(full) ? 'does not exist' : 'is not a folder'}`
    )
  const problems: ScenarioProblem[] = []
  for (const { file } of listScenarioFiles([full])) {
    try {
      readScenarioFile(file, { noFollow: true })
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      const own = error.problems.length ? error.problems : [{ path: '', message: error.message }]
      for (const p of own)
        problems.push({
          path: `${basename(file)}${p.path ? `: ${p.path}` : ''}`,
          message: p.message,
        })
    }
  }
  if (problems.length)
    throw fullError(
      `the scenarios folder ${full} holds files that are not valid scenarios (only .json, .yaml and .yml files are read, and each must be one)`,
      problems
    )
}

function isDirMissing(path: string): boolean {
  try {
    statSync(path)
    return false
  } catch {
    return true
  }
}
