import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The package version, read once from package.json beside dist/ or src/. */
export const VERSION: string = (() => {
  try {
    const file = fileURLToPath(new URL('../../package.json', import.meta.url))
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
  } catch {
    return '0.0.0'
  }
})()
