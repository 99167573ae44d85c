import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The folder holding novu-mock's package.json (and its scenarios/ and fixtures/), found from
 * this module wherever the build put it: src/, dist/, or the one-file CLI bundle.
 */
export const PACKAGE_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const up = dirname(dir)
    if (up === dir) return dir
    dir = up
  }
})()
