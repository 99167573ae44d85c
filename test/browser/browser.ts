import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Where the run writes its screenshots (git-ignored). */
const SHOTS = fileURLToPath(new URL('./.screenshots/', import.meta.url))

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']

/** Debian's Chromium, headless; no browser is downloaded. */
export async function launch(): Promise<Browser> {
  const executablePath = CANDIDATES.find((path) => path && existsSync(path))
  if (!executablePath)
    throw new Error('No Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH')
  mkdirSync(SHOTS, { recursive: true })
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] })
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false })
