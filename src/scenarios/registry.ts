import { existsSync, statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import {
  BUILTIN_SCENARIOS_DIR,
  listScenarioFiles,
  readScenarioFile,
  ScenarioError,
  type ScenarioFile,
} from './loader.js'
import type { Scenario } from './schema.js'
import { checkScenarioDir } from './scenario-file.js'

/** The scenarios a mock can load: the built-in folder, then the user's folder on top. */
export function createScenarioRegistry(userDir?: string) {
  // A folder that is missing, or holds a file that is not a scenario, stops the start naming it.
  if (userDir) checkScenarioDir(userDir)
  const dirs = userDir ? [BUILTIN_SCENARIOS_DIR, resolve(userDir)] : [BUILTIN_SCENARIOS_DIR]
  const list = (): ScenarioFile[] => listScenarioFiles(dirs)

  return {
    dirs,
    list,
    /**
     * Reads a scenario by name or, when `files` allows it (the start-up option, never an HTTP
     * body), by the path of a regular file.
     */
    load(nameOrFile: string, { files = false }: { files?: boolean } = {}): Scenario {
      const found = list().find((s) => s.name === nameOrFile)
      if (found) return readScenarioFile(found.file, { noFollow: true })
      const looksLikePath = /[\\/]|\.(ya?ml|json)$/.test(nameOrFile)
      const file = isAbsolute(nameOrFile) ? nameOrFile : resolve(nameOrFile)
      if (files && looksLikePath && existsSync(file) && statSync(file).isFile())
        return readScenarioFile(file)
      const names = list().map((s) => s.name)
      throw new ScenarioError(`Unknown scenario "${nameOrFile}". Available: ${names.join(', ')}.`, [
        { path: 'name', message: `no scenario named "${nameOrFile}"` },
      ])
    },
  }
}

export type ScenarioRegistry = ReturnType<typeof createScenarioRegistry>
