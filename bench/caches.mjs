// What each cache saves: for every route family of bench/routes.mjs (and the workloads of
// bench/cache-families.mjs for caches no family reaches), in both generations, the CPU time a
// request takes with every cache on, every cache off, and each cache that answered hits in
// that family turned off alone (NOVU_MOCK_CACHES=off:<name>).
// Caches are process-wide, so each setting runs in a child process of its own, fresh for each
// family (bench/cache-variant.mjs, a mock in process, requests handed to app.fetch as in
// bench/paired.mjs); the parent hands them batches in turn, one child at a time, in an order
// that rotates every round, and takes each setting's ratio to every-cache-on round by round,
// so that a neighbour's load lands on every setting alike. A second
// child with every cache on measures how far two processes differ with nothing changed.
// `node bench/caches.mjs`; env CACHES_FAMILIES (names, comma separated), CACHES_GENERATIONS,
// CACHES_ROUNDS (default 12), CACHES_WARM_REQUESTS (default 3000), CACHES_REQUESTS (a batch, default 200), BENCH_DIST,
// CACHES_OUT (default .bench/caches.json). Prints a table per generation: the saving of each
// cache on each family, in % of the CPU time with every cache on.
import { fork } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DIST, median, ROOT } from './harness.mjs'
import { GENERATIONS } from './routes.mjs'
import { familiesFor } from './cache-families.mjs'

const REQUESTS = Number(process.env.CACHES_REQUESTS ?? 200)
const ROUNDS = Number(process.env.CACHES_ROUNDS ?? 12)
/**
 * Requests each process answers first, not counted: a fresh process takes a few thousand before
 * V8 has compiled the family's code (measured: 460 µs a request in the first 500, 95 from 2,500).
 */
const WARM_ROUNDS = Math.ceil(Number(process.env.CACHES_WARM_REQUESTS ?? 3000) / REQUESTS)
const ONLY = process.env.CACHES_FAMILIES?.split(',')
const ONLY_GENERATIONS = process.env.CACHES_GENERATIONS?.split(',') ?? GENERATIONS
const VARIANT = fileURLToPath(new URL('./cache-variant.mjs', import.meta.url))
/** Below this a cache earns no place (issue 24): it must save as much on some family. */
const EARNS = 0.05

const log = (line) => process.stderr.write(`${line}\n`)

/** A child process whose mock runs with NOVU_MOCK_CACHES=`setting`; resolves once it is ready. */
function variant(label, setting, generation) {
  const child = fork(VARIANT, [generation], {
    env: { ...process.env, NOVU_MOCK_CACHES: setting, BENCH_DIST: DIST },
    execArgv: ['--expose-gc'],
  })
  let nextId = 1
  const waiting = new Map()
  child.on('message', ({ id, result, error }) => {
    const settle = waiting.get(id)
    waiting.delete(id)
    if (error) settle?.reject(new Error(`${label}: ${error}`))
    else settle?.resolve(result)
  })
  const ask = (type, fields = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve, reject })
      child.send({ id, type, ...fields })
    })
  return new Promise((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve({ label, setting, ask }), reject })
    child.once('exit', (code) => code && reject(new Error(`${label} exited with ${code}`)))
  })
}

/** The caches that answered hits while each family ran, on a mock with every cache on. */
async function discover(generation, families) {
  const probe = await variant('probe', 'on', generation)
  const hitsBy = {}
  for (const family of families) {
    await probe.ask('prepare', { family: family.name })
    const before = await probe.ask('hits')
    await probe.ask('batch', { family: family.name, count: REQUESTS })
    const after = await probe.ask('hits')
    hitsBy[family.name] = Object.keys(after)
      .filter((name) => after[name] > (before[name] ?? 0))
      .sort()
  }
  const all = Object.keys(await probe.ask('hits')).sort()
  await probe.ask('close')
  return { hitsBy, all }
}

/** CPU µs a request in each round, for each setting, batches in rotating order. */
async function measureFamily(family, sides) {
  const runs = new Map(sides.map((side) => [side, []]))
  for (const side of sides) await side.ask('prepare', { family: family.name })
  for (let round = -WARM_ROUNDS; round < ROUNDS; round++) {
    const start = ((round % sides.length) + sides.length) % sides.length
    const order = [...sides.slice(start), ...sides.slice(0, start)]
    for (const side of order) {
      const result = await side.ask('batch', {
        family: family.name,
        count: REQUESTS,
        fresh: true,
      })
      if (round >= 0) runs.get(side).push(result.cpu)
    }
  }
  return runs
}

async function measureGeneration(generation) {
  const families = familiesFor(generation).filter((f) => !ONLY || ONLY.includes(f.name))
  log(`${generation}: which caches answer on each of ${families.length} families`)
  const { hitsBy, all } = await discover(generation, families)
  const used = new Set(Object.values(hitsBy).flat())
  const out = { families: {}, unused: all.filter((name) => !used.has(name)) }
  for (const family of families) {
    // Fresh processes for each family, all started alike: a process left idle while others
    // ran would come back with its compiled code and young generation given up.
    const names = hitsBy[family.name]
    const settings = [
      ['every cache on', 'on'],
      ['every cache on (a second process)', 'on'],
      ['every cache off', 'off'],
      ...names.map((name) => [name, `off:${name}`]),
    ]
    const sides = await Promise.all(
      settings.map(([label, setting]) => variant(label, setting, generation))
    )
    const cpu = await measureFamily(family, sides)
    for (const side of sides) await side.ask('close')
    const [on, again, off] = sides
    const base = median(cpu.get(on))
    // Within a round the settings ran back to back, under the same neighbours: the ratio is
    // taken round by round, and its median is the figure.
    const saving = (side) =>
      +(median(cpu.get(side).map((micros, round) => micros / cpu.get(on)[round])) - 1).toFixed(3)
    const caches = Object.fromEntries(names.map((name, i) => [name, saving(sides[i + 3])]))
    out.families[family.name] = {
      label: family.label,
      cpuMicrosAllOn: +base.toFixed(1),
      noise: saving(again),
      allOff: saving(off),
      caches,
    }
    log(
      `  ${family.name}: ${base.toFixed(1)} µs with every cache on; all off ${pct(saving(off))}, second process ${pct(saving(again))}; ${names.map((name) => `${name} ${pct(caches[name])}`).join(', ')}`
    )
  }
  return out
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`

/** One markdown table: a row per cache, its saving on each family it answered in, and its best. */
function render(generation, result) {
  const names = Object.keys(result.families)
  const caches = [...new Set(names.flatMap((n) => Object.keys(result.families[n].caches)))].sort()
  const lines = [
    `| ${generation}: cache | ${names.join(' | ')} | best | earns its place (≥ ${EARNS * 100}%) |`,
    `|---|${names.map(() => '---|').join('')}---|---|`,
    `| CPU µs a request, every cache on | ${names.map((n) => result.families[n].cpuMicrosAllOn).join(' | ')} | | |`,
    `| every cache off | ${names.map((n) => pct(result.families[n].allOff)).join(' | ')} | | |`,
    `| a second process, nothing off (noise) | ${names.map((n) => pct(result.families[n].noise)).join(' | ')} | | |`,
  ]
  for (const cache of caches) {
    const savings = names.map((n) => result.families[n].caches[cache])
    const best = Math.max(...savings.filter((s) => s !== undefined))
    lines.push(
      `| ${cache} | ${savings.map((s) => (s === undefined ? '' : pct(s))).join(' | ')} | ${pct(best)} | ${best >= EARNS ? 'yes' : '**no**'} |`
    )
  }
  if (result.unused.length) lines.push('', `No hits on any family: ${result.unused.join(', ')}.`)
  return lines.join('\n')
}

const loadBefore = loadavg()[0]
const results = {
  date: new Date().toISOString(),
  node: process.version,
  rounds: ROUNDS,
  requests: REQUESTS,
}
for (const generation of ONLY_GENERATIONS) results[generation] = await measureGeneration(generation)
results.loadAverage = { before: +loadBefore.toFixed(2), after: +loadavg()[0].toFixed(2) }
const out = resolve(ROOT, process.env.CACHES_OUT ?? '.bench/caches.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)
for (const generation of ONLY_GENERATIONS)
  console.log(`${render(generation, results[generation])}\n`)
console.log(
  `Load average ${results.loadAverage.before} → ${results.loadAverage.after}; ${ROUNDS} rounds of ${REQUESTS} requests; wrote ${relative(ROOT, out)}`
)
