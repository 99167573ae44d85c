import { createRequire } from 'node:module'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { PACKAGE_ROOT } from '../package-root.js'
import { z } from 'zod'
import { DataSchema, ScenarioSchema, type Scenario, type ScenarioData } from './schema.js'

export const BUILTIN_SCENARIOS_DIR = join(PACKAGE_ROOT, 'scenarios')
export const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures')
const EXTENSIONS = ['.yaml', '.yml', '.json']

/** A problem found while reading or validating a scenario, with the path to the bad value. */
export interface ScenarioProblem {
  path: string
  message: string
}

export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly problems: ScenarioProblem[] = []
  ) {
    super(message)
    this.name = 'ScenarioError'
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
    throw new ScenarioError(`the scenario file is not valid ${format.toUpperCase()}`, [
      { path: '', message: (error as Error).message },
    ])
  }
}

export const issuesToProblems = (issues: z.core.$ZodIssue[]): ScenarioProblem[] =>
  issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))

/** Validates a scenario object whole; every problem is reported, not just the first. */
export function validateScenario(raw: unknown): Scenario {
  const result = ScenarioSchema.safeParse(raw)
  if (!result.success)
    throw new ScenarioError('the scenario is not valid', issuesToProblems(result.error.issues))
  return result.data
}

export interface ScenarioFile {
  name: string
  file: string
}

/** Scenario files found in the given folders; a later folder's file replaces an earlier one of the same name. */
export function listScenarioFiles(dirs: string[]): ScenarioFile[] {
  const byName = new Map<string, ScenarioFile>()
  for (const dir of dirs) {
    if (!existsSync(dir)) continue
    for (const entry of readdirSync(dir).sort()) {
      const ext = extname(entry)
      if (!EXTENSIONS.includes(ext) || !statSync(join(dir, entry)).isFile()) continue
      byName.set(entry.slice(0, -ext.length), {
        name: entry.slice(0, -ext.length),
        file: join(dir, entry),
      })
    }
  }
  return [...byName.values()]
}

export function readScenarioFile(file: string): Scenario {
  const format = extname(file) === '.json' ? 'json' : 'yaml'
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ScenarioError(
      `cannot read the scenario file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`
    )
  }
  const raw = parseScenarioText(text, format)
  return validateScenario(raw)
}

/** The scenario's data with its fixture, if it names one, underneath. */
export function resolveScenarioData(scenario: Scenario, fixturesDir = FIXTURES_DIR): ScenarioData {
  if (!scenario.fixture) return scenario.data
  const file = join(fixturesDir, `${scenario.fixture}.json`)
  if (!/^[A-Za-z0-9._-]+$/.test(scenario.fixture) || !existsSync(file))
    throw new ScenarioError(`unknown fixture "${scenario.fixture}"`, [
      { path: 'fixture', message: `no fixtures/${scenario.fixture}.json` },
    ])
  const base = DataSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
  const own = scenario.data
  return {
    notificationGroups: [...base.notificationGroups, ...own.notificationGroups],
    topics: [...base.topics, ...own.topics],
    workflows: [...base.workflows, ...own.workflows],
    messages: [...base.messages, ...own.messages],
    ...(own.generate || base.generate
      ? { generate: { ...base.generate, ...own.generate } as ScenarioData['generate'] }
      : {}),
  }
}
