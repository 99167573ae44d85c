import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { PACKAGE_ROOT } from '../package-root.js'

/**
 * The built-in scenario and fixture files as their check made them (defaults filled in), each
 * with the SHA-256 of the text it was made from: a start-up on a built-in scenario skips
 * building the scenario schemas and checking the file, which took a twentieth of a cold start.
 * A file whose text differs (edited in place) is checked as any other; a user's files always
 * are. `node scripts/prove-built-ins.mjs` writes them after a build; a test keeps them current.
 */
const PROVEN_DIR = join(PACKAGE_ROOT, 'fixtures', 'proven')

interface Proven {
  sha256: string
  value: unknown
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** Where the proven form of a package file is kept: `scenarios/default.json` → `fixtures/proven/scenarios/default.json`. */
export function provenPath(file: string): string | undefined {
  const own = relative(PACKAGE_ROOT, file)
  const [top, next] = own.split(sep)
  const packaged = top === 'scenarios' || (top === 'fixtures' && next !== 'proven')
  return packaged ? join(PROVEN_DIR, own) : undefined
}

/**
 * The checked value of a package file whose text is `text`, read fresh each time (callers may
 * change what they get), or undefined when there is none or the text is not the one proven.
 */
export function provenValue(file: string, text: string): unknown {
  const path = provenPath(file)
  if (!path) return undefined
  let proven: Proven
  try {
    proven = JSON.parse(readFileSync(path, 'utf8')) as Proven
  } catch {
    return undefined
  }
  return proven.sha256 === sha256(text) ? proven.value : undefined
}
