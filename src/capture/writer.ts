/**
 * The captured scenario as a file: YAML (with the header as comments) or JSON by the extension,
 * written beside its final name first and then renamed, so that a failed capture never leaves
 * half a file where the mock would load it.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, extname } from 'node:path'

// The YAML library loads only when a YAML file is written.
const requireLazily = createRequire(import.meta.url)

export const formatOf = (file: string): 'json' | 'yaml' =>
  extname(file).toLowerCase() === '.json' ? 'json' : 'yaml'

export function scenarioText(scenario: object, header: string[], format: 'json' | 'yaml'): string {
  if (format === 'json') return `${JSON.stringify(scenario, null, 2)}\n`
  const yaml = requireLazily('yaml') as typeof import('yaml')
  const body = yaml.stringify(scenario, { lineWidth: 0, aliasDuplicateObjects: false })
  return `${header.map((line) => `# ${line}`.trimEnd()).join('\n')}\n${body}`
}

export async function writeScenarioFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.partial`
  try {
    await writeFile(temporary, text, { mode: 0o644 })
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
