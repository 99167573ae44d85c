// The built CLI and library run their bundle through V8's code cache (src/code-cache.ts): the
// cache is written after the first answer, and a cache that cannot be trusted or used (corrupt,
// writable by others, another user's, unwritable, switched off) leaves the mock answering as it
// does without one. Each test has a cache folder of its own (NOVU_MOCK_COMPILE_CACHE=DIR).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, expect, onTestFinished, test } from 'vitest'

const CLI = fileURLToPath(new URL('../dist/novu-mock.mjs', import.meta.url))
const LIBRARY = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href
const running: ChildProcess[] = []

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function cacheFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'novu-mock-code-cache-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}

/** Starts the built CLI with this cache setting and answers its first GET /v1/topics. */
async function started(setting: string, cli = CLI) {
  const child = spawn(process.execPath, [cli, '--port', '0'], {
    env: { ...process.env, NOVU_MOCK_COMPILE_CACHE: setting },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1]) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}`)))
  })
  const res = await fetch(`${url}/v1/topics`, { headers: { Authorization: 'ApiKey code-cache' } })
  await res.text()
  const revoked = await fetch(`${url}/v1/topics`, {
    headers: { Authorization: 'ApiKey invalid-key' },
  })
  const refusal = ((await revoked.json()) as { message?: string }).message
  /** SIGTERM, as a user stops it: in-flight work (a cache being written) ends before it exits. */
  const stopped = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    return exited
  }
  return { status: res.status, refusal, stopped }
}

const firstAnswer = async (setting: string) => (await started(setting)).status

/** The folder's cache files whose checksum holds (as the launcher writes them). */
function validCaches(folder: string, prefix = 'novu-mock.cjs-'): string[] {
  return readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.bin'))
    .map((name) => join(folder, name))
    .filter((file) => {
      const data = readFileSync(file)
      const digest = createHash('sha256').update(data.subarray(32)).digest()
      return data.length > 32 && digest.equals(data.subarray(0, 32))
    })
}

/** A folder holding the cache a first start wrote, and that cache file. */
async function warmed(cli = CLI): Promise<{ folder: string; file: string }> {
  const folder = cacheFolder()
  expect((await started(folder, cli)).status).toBe(200)
  await expect.poll(() => validCaches(folder).length, { timeout: 15_000 }).toBe(1)
  for (const child of running.splice(0)) child.kill('SIGKILL')
  return { folder, file: validCaches(folder)[0] as string }
}

test('the CLI writes its code cache after its first answer, and starts again with it', async () => {
  const { folder, file } = await warmed()
  expect(statSync(file).mode & 0o022).toBe(0)
  const written = statSync(file).ino
  const again = await started(folder)
  expect(again.status).toBe(200)
  // A cache V8 took is not written again (one it refused would be, renamed over this one).
  expect(await again.stopped()).toBe(0)
  expect(statSync(file).ino).toBe(written)
})

test('a bundle edited after its build, its length kept, runs as edited and not from the cache of the build', async () => {
  // A copy of the package, whose bundle this test may change.
  const root = cacheFolder()
  for (const part of ['package.json', 'dist', 'scenarios', 'fixtures'])
    cpSync(fileURLToPath(new URL(`../${part}`, import.meta.url)), join(root, part), {
      recursive: true,
    })
  symlinkSync(
    fileURLToPath(new URL('../node_modules', import.meta.url)),
    join(root, 'node_modules')
  )
  const cli = join(root, 'dist', 'novu-mock.mjs')
  const { folder, file } = await warmed(cli)
  expect((await started(folder, cli)).refusal).toBe('API Key not found')
  const bundle = join(root, 'dist', 'novu-mock.cjs')
  const text = readFileSync(bundle, 'latin1')
  writeFileSync(bundle, text.replaceAll('API Key not found', 'API Key not FOUND'), 'latin1')
  expect((await started(folder, cli)).refusal).toBe('API Key not FOUND')
  // The edited bundle's cache takes the place of the build's.
  await expect.poll(() => validCaches(folder), { timeout: 15_000 }).not.toEqual([file])
  expect(validCaches(folder)).toHaveLength(1)
})

test('a cache file of random bytes is ignored: the CLI answers and writes a sound one over it', async () => {
  const { folder, file } = await warmed()
  writeFileSync(file, randomBytes(4096))
  expect(await firstAnswer(folder)).toBe(200)
  await expect.poll(() => validCaches(folder), { timeout: 15_000 }).toEqual([file])
})

test('a cache whose bytecode was damaged behind an intact header is not run', async () => {
  const { folder, file } = await warmed()
  const data = readFileSync(file)
  // V8 checks its header alone: the launcher's checksum is what catches this.
  randomBytes(1024).copy(data, Math.floor(data.length / 2))
  writeFileSync(file, data)
  expect(await firstAnswer(folder)).toBe(200)
  await expect.poll(() => validCaches(folder), { timeout: 15_000 }).toEqual([file])
})

test('bytecode V8 refuses (its checksum sound, its payload not V8 data) is ignored', async () => {
  const { folder, file } = await warmed()
  const payload = Buffer.from('not V8 bytecode, sent by no compiler '.repeat(100))
  writeFileSync(file, Buffer.concat([createHash('sha256').update(payload).digest(), payload]))
  expect(await firstAnswer(folder)).toBe(200)
  await expect.poll(() => statSync(file).size > payload.length + 32, { timeout: 15_000 }).toBe(true)
  expect(validCaches(folder)).toEqual([file])
})

test('a cache file other users may write is not read, and is replaced by one they may not', async () => {
  const { folder, file } = await warmed()
  chmodSync(file, 0o666)
  expect(await firstAnswer(folder)).toBe(200)
  await expect.poll(() => statSync(file).mode & 0o022, { timeout: 15_000 }).toBe(0)
})

test.runIf(process.getuid?.() === 0)(
  'a cache file another user owns is not read, and is replaced by one of this user',
  async () => {
    const { folder, file } = await warmed()
    chownSync(file, 65534, 65534)
    expect(await firstAnswer(folder)).toBe(200)
    await expect.poll(() => statSync(file).uid, { timeout: 15_000 }).toBe(0)
  }
)

test('NOVU_MOCK_COMPILE_CACHE=off starts the CLI without a cache, and it answers', async () => {
  expect(await firstAnswer('off')).toBe(200)
})

test('a cache folder that cannot be made leaves the CLI answering without a cache', async () => {
  const folder = cacheFolder()
  const notAFolder = join(folder, 'a-file')
  writeFileSync(notAFolder, '')
  expect(await firstAnswer(join(notAFolder, 'cache'))).toBe(200)
})

test('startMock() from the built library writes its own code cache and answers', async () => {
  const folder = cacheFolder()
  const script = `
    const { startMock } = await import(${JSON.stringify(LIBRARY)})
    const mock = await startMock({ port: 0, logLevel: 'silent' })
    const res = await fetch(mock.url + '/v1/topics', { headers: { Authorization: 'ApiKey code-cache' } })
    await res.text()
    console.log(res.status)
    await mock.close()`
  const run = (): Promise<{ stdout: string }> =>
    promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NOVU_MOCK_COMPILE_CACHE: folder },
    })
  expect((await run()).stdout.trim()).toBe('200')
  await expect.poll(() => validCaches(folder, 'index.cjs-').length, { timeout: 15_000 }).toBe(1)
  expect((await run()).stdout.trim()).toBe('200')
})
