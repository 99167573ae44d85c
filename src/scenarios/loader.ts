import { badRequest, httpError, MockRefusal } from '../errors.js'
import { createRequire } from 'node:module'
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs'
import { extname, join, sep } from 'node:path'
import { PACKAGE_ROOT } from '../package-root.js'
import { DataSchema, ScenarioSchema, type Scenario, type ScenarioData } from './schema.js'
import { describeJsonError, describeYamlError } from './parse-errors.js'
import { loadScenarioText } from './scenario-file.js'
import { provenValue } from './proven.js'
import { CHECKED_ONCE, issueProblems } from '../zod-issues.js'

export const BUILTIN_SCENARIOS_DIR = join(PACKAGE_ROOT, 'scenarios')
const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures')
const EXTENSIONS = ['.yaml', '.yml', '.json']
/** As large as an inline scenario may be (the admin body limit): parsing takes a few times this. */
const MAX_SCENARIO_FILE_BYTES = 20 * 1024 * 1024

/** A problem found while reading or validating a scenario, with the path to the bad value. */
export interface ScenarioProblem {
  path: string
  message: string
}

/** A scenario that does not load: 404 when no scenario has the name, else 400 with each problem. */
export class ScenarioError extends MockRefusal {
  constructor(
    message: string,
    readonly problems: ScenarioProblem[] = []
  ) {
    super(message)
    this.name = 'ScenarioError'
  }

  answer() {
    if (this.message.startsWith('Unknown scenario')) return httpError(404, this.message)
    const lines = this.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message))
    return badRequest(lines.length ? lines : [this.message])
  }
}

// The YAML parser costs tens of milliseconds to load: only a YAML file pays for it.
const requireLazily = createRequire(import.meta.url)
let yamlModule: typeof import('yaml') | undefined
function parseYaml(text: string): unknown {
  yamlModule ??= requireLazily('yaml') as typeof import('yaml')
  return yamlModule.parse(text, { maxAliasCount: 100 })
}

export function parseScenarioText(text: string, format: 'yaml' | 'json'): unknown {
  try {
    return format === 'json' ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    const where =
      format === 'json'
        ? describeJsonError(text, error as Error)
        : describeYamlError(error as Error)
    throw new ScenarioError(`the scenario file is not valid ${format.toUpperCase()}`, [
      { path: '', message: where },
    ])
  }
}

/** Validates a scenario object whole; every problem is reported, not just the first. */
export function validateScenario(raw: unknown): Scenario {
  const result = ScenarioSchema.safeParse(raw, CHECKED_ONCE)
  if (!result.success)
    throw new ScenarioError('the scenario is not valid', issueProblems(result.error.issues))
  return result.data
}

export interface ScenarioFile {
  name: string
  /** The file's real path, inside `dir`. */
  file: string
  dir: string
}

/**
 * The real path of a regular file inside the folder `root` (itself a real path), or undefined:
 * a symlink is followed only while it stays inside, so a link to /etc/passwd is no scenario.
 */
function insideFolder(root: string, path: string): string | undefined {
  try {
    const real = realpathSync(path)
    return real.startsWith(root + sep) && statSync(real).isFile() ? real : undefined
  } catch {
    return undefined
  }
}

/** Scenario files found in the given folders; a later folder's file replaces an earlier one of the same name. */
export function listScenarioFiles(dirs: string[]): ScenarioFile[] {
  const byName = new Map<string, ScenarioFile>()
  for (const dir of dirs) {
    if (!existsSync(dir)) continue
    const root = realpathSync(dir)
    for (const entry of readdirSync(dir).sort()) {
      const ext = extname(entry)
      if (!EXTENSIONS.includes(ext)) continue
      const file = insideFolder(root, join(dir, entry))
      if (file)
        byName.set(entry.slice(0, -ext.length), { name: entry.slice(0, -ext.length), file, dir })
    }
  }
  return [...byName.values()]
}

/** The file's text, read through one descriptor so that the size checked is the size read. */
function readText(file: string, noFollow: boolean): string {
  // A listed file is already its real path: a symlink found there now was swapped in since.
  const fd = openSync(file, constants.O_RDONLY | (noFollow ? constants.O_NOFOLLOW : 0))
  try {
    // Checked before reading: the text and what parsing it builds are held at once.
    if (fstatSync(fd).size > MAX_SCENARIO_FILE_BYTES)
      throw new ScenarioError(
        `the scenario file is over ${MAX_SCENARIO_FILE_BYTES / 1024 / 1024} MB (the largest a scenario may be)`
      )
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

/** `noFollow` for a file listed from a folder: its path is already real. */
export function readScenarioFile(file: string, { noFollow = false } = {}): Scenario {
  const format = extname(file) === '.json' ? 'json' : 'yaml'
  let text: string
  try {
    text = readText(file, noFollow)
  } catch (error) {
    if (error instanceof ScenarioError) throw error
    throw new ScenarioError(
      `cannot read the scenario file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`
    )
  }
  // The file's rules (its name, and problems placed by line and column): scenario-file.ts.
  return loadScenarioText(file, text, format)
}

/** A fixture file's data, checked (scripts/prove-built-ins.mjs runs it too). */
export const checkFixtureText = (text: string): ScenarioData =>
  DataSchema.parse(JSON.parse(text), CHECKED_ONCE)

/** The scenario's data with its fixture, if it names one, underneath. */
export function resolveScenarioData(scenario: Scenario, fixturesDir = FIXTURES_DIR): ScenarioData {
  if (!scenario.fixture) return scenario.data
  const file = join(fixturesDir, `${scenario.fixture}.json`)
  if (!/^[A-Za-z0-9._-]+$/.test(scenario.fixture) || !existsSync(file))
    throw new ScenarioError(`unknown fixture "${scenario.fixture}"`, [
      { path: 'fixture', message: `no fixtures/${scenario.fixture}.json` },
    ])
  const text = readFileSync(file, 'utf8')
  const base = (provenValue(file, text) as ScenarioData | undefined) ?? checkFixtureText(text)
  const own = scenario.data
  return {
    notificationGroups: [...base.notificationGroups, ...own.notificationGroups],
    subscribers: [...base.subscribers, ...own.subscribers],
    topics: [...base.topics, ...own.topics],
    workflows: [...base.workflows, ...own.workflows],
    messages: [...base.messages, ...own.messages],
    ...(base.preferences || own.preferences
      ? { preferences: [...(base.preferences ?? []), ...(own.preferences ?? [])] }
      : {}),
    ...(base.tenants || own.tenants
      ? { tenants: [...(base.tenants ?? []), ...(own.tenants ?? [])] }
      : {}),
    ...(base.integrations || own.integrations
      ? { integrations: [...(base.integrations ?? []), ...(own.integrations ?? [])] }
      : {}),
    ...(own.generate || base.generate
      ? { generate: { ...base.generate, ...own.generate } as ScenarioData['generate'] }
      : {}),
  }
}
