// Runs a CommonJS bundle of dist/ (the CLI, the library) through V8's code cache: Node 20 has no
// module.enableCompileCache (Node 22.1), so the launchers load the bundle with vm.Script and
// the bytecode V8 compiled for it in an earlier process. The cache is written once the first
// HTTP answer has gone out, so it holds what the start and the first request compiled, not the
// top level alone. Every failure (no cache, a foreign, stale or corrupt one, a read-only install)
// falls back to compiling the source, which is what Node does without a cache.
import { createHash } from 'node:crypto'
import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel'
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants, Script } from 'node:vm'

/** off (or 0, false, no) turns the cache off; a folder puts it there; unset, beside the package. */
const SWITCH = 'NOVU_MOCK_COMPILE_CACHE'
/** The first HTTP answer the process sends (Node's http server publishes it). */
const ANSWERED = 'http.server.response.finish'
/** Without an HTTP answer (a library user on app.request), the cache is written this long after start. */
const FALLBACK_MS = 3000
const CHECKSUM_BYTES = 32
/**
 * Told before and after the bytecode is serialised: V8 stamps it with a hash of its flags and
 * refuses it under others, so src/memory/young-generation.ts, which sets one, sets it back
 * meanwhile. Its name is repeated there: the launcher's modules are not the bundle's.
 */
const serialising = channel('novu-mock:code-cache-serialising')

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest()

/**
 * Where an installed package's tools keep caches, `<project>/node_modules/.cache/novu-mock`, and
 * in a checkout `node_modules/.cache/novu-mock` inside it.
 */
function defaultFolder(dist: string): string {
  const root = dirname(dist)
  const parent = dirname(root)
  const modules = basename(parent) === 'node_modules' ? parent : join(root, 'node_modules')
  return join(modules, '.cache', 'novu-mock')
}

function cacheFolder(dist: string): string | undefined {
  const setting = process.env[SWITCH]?.trim()
  if (!setting) return defaultFolder(dist)
  return /^(off|0|false|no)$/i.test(setting) ? undefined : setting
}

/**
 * The cached bytecode, when the file is this user's (or root's, as an image's build leaves it)
 * and no one else may write it: bytecode is code, never read from a file another user planted.
 * Its checksum is checked too, since V8 checks its header alone and would run a corrupt payload.
 */
function readTrusted(file: string): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return undefined
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) return undefined
    // POSIX only: Windows reports every writable file as 0o666 and no owner.
    const uid = process.getuid?.()
    if (uid !== undefined && ((stat.mode & 0o022) !== 0 || (stat.uid !== uid && stat.uid !== 0)))
      return undefined
    const data = readFileSync(fd)
    const payload = data.subarray(CHECKSUM_BYTES)
    return payload.length > 0 && sha256(payload).equals(data.subarray(0, CHECKSUM_BYTES))
      ? payload
      : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * Atomically (a file of its own, renamed over the old), and drops the caches of other builds of
 * this bundle (those of this build under other Node flags stay: each start would refuse the other's).
 */
function writeCache(
  folder: string,
  file: string,
  bundle: string,
  build: string,
  script: Script
): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    // First: a folder this user cannot make (an image's, root's) costs no serialising.
    mkdirSync(folder, { recursive: true, mode: 0o755 })
    serialising.publish({ phase: 'start' })
    let payload: Buffer
    try {
      payload = script.createCachedData()
    } finally {
      serialising.publish({ phase: 'end' })
    }
    // A new file only (wx): never through a link someone left under that name.
    writeFileSync(temporary, Buffer.concat([sha256(payload), payload]), { mode: 0o644, flag: 'wx' })
    renameSync(temporary, file)
    for (const name of readdirSync(folder))
      if (name.startsWith(`${bundle}-`) && !name.startsWith(build) && name.endsWith('.bin'))
        unlinkSync(join(folder, name))
  } catch {
    // A read-only install or a full disk: the next start compiles, as this one did.
    try {
      unlinkSync(temporary)
    } catch {
      // Never made, or not this process's to remove.
    }
  }
}

/** Writes the cache off the request path, after the first HTTP answer or the fallback delay. */
function writeWhenWarm(write: () => void): void {
  let done = false
  const once = () => {
    if (done) return
    done = true
    unsubscribe(ANSWERED, onAnswer)
    clearTimeout(timer)
    write()
  }
  const onAnswer = () => setImmediate(once).unref()
  subscribe(ANSWERED, onAnswer)
  const timer = setTimeout(once, FALLBACK_MS)
  timer.unref()
}

/**
 * Runs `dist/<bundle>` (CommonJS, ASCII: scripts/bundle.mjs) as Node would require it, through
 * the code cache when one can be used, and returns its exports. `built` is the bundle's SHA-256
 * as the build wrote it into the launcher: hashing two megabytes at every start took a seventieth
 * of startMock()'s; without it, the bundle is hashed here.
 */
export function runCached(bundle: string, built?: string): Record<string, unknown> {
  const dist = dirname(fileURLToPath(import.meta.url))
  const filename = join(dist, bundle)
  const fd = openSync(filename, 'r')
  let bytes: Buffer
  let stamp: string
  try {
    bytes = readFileSync(fd)
    // A bundle edited after the build (another size or time) has no cache under the build's hash.
    stamp = built ? `${built} ${bytes.length} ${fstatSync(fd).mtimeMs}` : ''
  } finally {
    closeSync(fd)
  }
  const folder = cacheFolder(dist)
  const hex = (data: Buffer | string) => sha256(data).toString('hex').slice(0, 16)
  // V8 checks the source's length alone: the bundle's own hash (or the build's, with the
  // bundle's size and time) names its cache. Node's version and flags change the bytecode V8 takes.
  const build = `${bundle}-${hex(built ? stamp : bytes)}-`
  const runtime = `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
  const file = folder ? join(folder, `${build}${hex(runtime)}.bin`) : undefined
  const cachedData = file ? readTrusted(file) : undefined
  // The bundle holds its module wrapper (scripts/bundle.mjs): joined here, it would leave V8 a
  // copy of the whole text on its heap; as read, a text over a megabyte stays off it.
  const script = new Script(bytes.toString('latin1'), {
    filename,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  if (folder && file && (!cachedData || script.cachedDataRejected))
    writeWhenWarm(() => writeCache(folder, file, bundle, build, script))
  const module = { exports: {} as Record<string, unknown> }
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper(module.exports, createRequire(filename), module, filename, dist)
  return module.exports
}
