// Sums a .cpuprofile's self time by function and by file, to find the hot spots:
// `node bench/cpu-summary.mjs <file.cpuprofile> [top=30]`.
import { readFileSync } from 'node:fs'

export function summarise(profile, top = 30) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map()
  // Samples are taken at a fixed interval; timeDeltas give each sample's own duration.
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
  )
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const byFunction = new Map()
  const byFile = new Map()
  const inclusive = new Map()
  const parent = new Map()
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id)
  const label = ({ functionName, url, lineNumber }) =>
    `${functionName || '(anonymous)'} ${shortUrl(url) || '(native)'}${url ? `:${lineNumber + 1}` : ''}`
  for (const [id, micros] of self) {
    const { url } = byId.get(id).callFrame
    const file = shortUrl(url) || '(native)'
    const fn = label(byId.get(id).callFrame)
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros)
    byFile.set(file, (byFile.get(file) ?? 0) + micros)
    // Total time: every function on the sample's stack, once each even when recursive.
    const seen = new Set()
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(label(byId.get(at).callFrame))
    for (const fnOnStack of seen) inclusive.set(fnOnStack, (inclusive.get(fnOnStack) ?? 0) + micros)
  }
  const rows = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ ms: Math.round(micros / 1000), '%': pct(micros, total), name }))
  const ours = new Map([...inclusive].filter(([name]) => / (dist|src)\//.test(name)))
  return {
    totalMs: Math.round(total / 1000),
    functions: rows(byFunction),
    files: rows(byFile),
    /** Total (self + callees) time of the project's own functions. */
    inclusive: rows(ours),
  }
}

const pct = (part, total) => ((100 * part) / total).toFixed(1)

/** `~/hono/dist/compose.js` for a dependency, `dist/app.js` for the project's own code. */
function shortUrl(url) {
  const path = url.replace(/^file:\/\//, '')
  if (path.includes('/node_modules/')) return path.replace(/^.*\/node_modules\//, '~/')
  return path.replace(/^.*\/(dist|src|bench)\//, '$1/')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'))
  const { totalMs, functions, files, inclusive } = summarise(profile, Number(process.argv[3] ?? 30))
  console.log(`self time, ${totalMs} ms sampled`)
  console.table(functions)
  console.table(files)
  console.log("total time of the project's functions")
  console.table(inclusive)
}
