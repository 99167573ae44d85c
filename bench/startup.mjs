// Start-up of the built CLI, as a user or a test set-up sees it: from spawning
// `node dist/novu-mock.mjs --port 0` (the bundled CLI) to its banner, to the first 200 on /__admin/health, and to the
// first 200 on GET /v1/topics (which builds the key's environment); and the same for a bare Hono
// app (bench/bare-start.mjs), the floor of Node and our HTTP stack; and the CPU time the process
// used until that 200, the figure a shared machine moves least. `node bench/startup.mjs [n]`.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DIST, pinned, SERVER_CORE, summary } from './harness.mjs'

const BANNER = /novu-mock \S+ listening on (http:\/\/\S+)/

/** One GET without keep-alive; resolves with the status, or 0 when the connection failed. */
function status(url, headers = {}) {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve(0))
  })
}

/** Milliseconds from `t0` until `url` answers 200, asking again as soon as an answer is not. */
async function firstOk(url, headers, t0) {
  for (let tries = 0; tries < 10_000; tries++) {
    if ((await status(url, headers)) === 200) return performance.now() - t0
  }
  throw new Error(`${url} never answered 200`)
}

const BARE = fileURLToPath(new URL('./bare-start.mjs', import.meta.url))

/**
 * The CPU time a process has used so far (user and system, ms; Linux, in 10 ms ticks): on a
 * shared machine it moves far less than the wall-clock time with the neighbours' load.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

const startOnce = (dist, bare = false) => startScript(bare ? BARE : join(dist, 'novu-mock.mjs'))

/** One start of `script` (a CLI, or the bare app, which ignores the flags) with `env` added. */
export async function startScript(script, env = {}) {
  const [command, args] = pinned(SERVER_CORE, [process.execPath, script, '--port', '0'])
  const t0 = performance.now()
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  })
  try {
    const url = await new Promise((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk) => {
        out += chunk
        const match = BANNER.exec(out)
        if (match) resolve(match[1])
      })
      child.once('exit', (code) => reject(new Error(`novu-mock exited with ${code}: ${out}`)))
    })
    const listening = performance.now() - t0
    // Both at once, as a test set-up that checks health and then calls the API would race them.
    const [health, topics] = await Promise.all([
      firstOk(`${url}/__admin/health`, {}, t0),
      firstOk(`${url}/v1/topics`, { Authorization: 'ApiKey bench-startup' }, t0),
    ])
    return { listening, health, topics, cpu: cpuMs(child.pid) }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

/** Median (and spread) of `starts` cold starts; one unmeasured start first warms the disk cache. */
export async function measureStartup({ starts = 10, dist = DIST } = {}) {
  await startOnce(dist)
  await startOnce(dist, true)
  const runs = []
  const bareRuns = []
  // Alternated, so that a busy moment slows both.
  for (let i = 0; i < starts; i++) {
    runs.push(await startOnce(dist))
    bareRuns.push(await startOnce(dist, true))
  }
  const of = (list, key) => summary(list.map((run) => Math.round(run[key])))
  const three = (list) => ({
    listening: of(list, 'listening'),
    health: of(list, 'health'),
    topics: of(list, 'topics'),
    cpu: of(list, 'cpu'),
  })
  return { starts, ...three(runs), bare: three(bareRuns) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureStartup({ starts: Number(process.argv[2] ?? 10) })
  for (const key of ['listening', 'health', 'topics', 'cpu']) {
    const { median, min, max } = result[key]
    const bare = result.bare[key]
    console.log(
      `${key.padEnd(10)} median ${median} ms (${min}–${max}); bare Hono ${bare.median} ms (${bare.min}–${bare.max})`
    )
  }
}
