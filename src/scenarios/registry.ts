import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import {
  BUILTIN_SCENARIOS_DIR,
  listScenarioFiles,
  readScenarioFile,
  ScenarioError,
  type ScenarioFile,
} from './loader.js'
import type { Scenario } from './schema.js'

/** The scenarios a mock can load: the built-in folder, then the user's folder on top. */
export function createScenarioRegistry(userDir?: string) {
  const dirs = userDir ? [BUILTIN_SCENARIOS_DIR, resolve(userDir)] : [BUILTIN_SCENARIOS_DIR]
  const list = (): ScenarioFile[] => listScenarioFiles(dirs)

  return {
    dirs,
    list,
    /** Reads a scenario by name, or by file path when the value names a file. */
    load(nameOrFile: string): Scenario {
      const found = list().find((s) => s.name === nameOrFile)
      if (found) return readScenarioFile(found.file)
      const looksLikePath = /[\\/]|\.(ya?ml|json)$/.test(nameOrFile)
      const file = isAbsolute(nameOrFile) ? nameOrFile : resolve(nameOrFile)
      if (looksLikePath && existsSync(file)) return readScenarioFile(file)
      const names = list().map((s) => s.name)
      throw new ScenarioError(`Unknown scenario "${nameOrFile}". Available: ${names.join(', ')}.`, [
        { path: 'name', message: `no scenario named "${nameOrFile}"` },
      ])
    },
  }
}

export type ScenarioRegistry = ReturnType<typeof createScenarioRegistry>
