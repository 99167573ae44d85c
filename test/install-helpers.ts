import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const run = promisify(execFile)

/** npm as a test runs it: quiet, and from the cache when it can be. */
export const NPM_INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline']

/**
 * The environment of a command a user types in a new project: none of this run's vitest
 * variables, which a nested vitest would take as its own.
 */
export function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '1' }
  for (const name of ['VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS'])
    delete env[name]
  return env
}

/**
 * The working tree as a fresh clone has it (tracked and new files, no dist/ and no
 * node_modules), with this checkout's node_modules linked in unless told not to, so that its
 * build needs no download: `npm pack` there must build dist/ itself.
 */
export async function unbuiltCopy(into: string, linkModules = true): Promise<string> {
  const copy = join(into, 'novu-mock')
  const { stdout } = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  for (const path of stdout.split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    cpSync(join(ROOT, path), join(copy, path), { dereference: false })
  }
  if (linkModules) symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
  return copy
}

/** `npm pack` of a project folder: the tarball's path and the paths it holds. */
export async function pack(
  project: string,
  into: string,
  flags: string[] = []
): Promise<{ tarball: string; files: string[] }> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', into, ...flags], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  })
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [
    { filename: string; files: { path: string }[] },
  ]
  return { tarball: join(into, info.filename), files: info.files.map((f) => f.path) }
}

/** A new, empty ES module project folder. */
export function newProject(dir: string, name = 'project'): string {
  const project = join(dir, name)
  mkdirSync(project, { recursive: true })
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: `example-${name}`, private: true, type: 'module' }) + '\n'
  )
  return project
}

/**
 * Starts the installed CLI on a free port, waits for its banner's first line and answers
 * the URL it listens on and its whole banner; `stop()` sends SIGTERM and resolves to the exit code.
 */
export function startCli(project: string, args: string[] = []) {
  const child = spawn(
    join(project, 'node_modules', '.bin', 'novu-mock'),
    ['--port', '0', ...args],
    {
      cwd: project,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let out = ''
  const listening = new Promise<{ url: string; banner: () => string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url) resolve({ url, banner: () => out })
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    void exited.then((code) => reject(new Error(`novu-mock exited with ${code}: ${out}`)))
  })
  const stop = () => {
    child.kill('SIGTERM')
    return exited
  }
  return { listening, stop }
}
