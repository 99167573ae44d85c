// What the mock's heap holds after its start and a first request for each of a few keys, by the
// code that allocated it (issue 24: what is left of the RSS gap beside the bare app is heap the
// bundle's top level and the environments keep). Allocation tracking through the inspector, a
// collection, a heap snapshot with its allocation traces; each live byte goes to the innermost
// frame of its stack, and to the innermost module of the bundle on it (esbuild names a lazily
// evaluated module's body by its path; scope-hoisted modules run in the bundle's top level).
// `node bench/alloc-sites.mjs [keys=3] [rows=30]`, NOVU_MOCK_COMPILE_CACHE=off for a cold start.
import { request } from 'node:http'
import { Session } from 'node:inspector'
import { pathToFileURL } from 'node:url'
import { DIST } from './harness.mjs'

const KEYS = Number(process.argv[2] ?? 3)
const ROWS = Number(process.argv[3] ?? 30)

const session = new Session()
session.connect()
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)))
  )

await post('HeapProfiler.enable')
await post('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true })
const { startMock } = await import(pathToFileURL(`${DIST}/index.js`).href)
const mock = await startMock({ port: 0 })
// node:http, not fetch: undici's modules would be counted among the mock's.
const get = (key) =>
  new Promise((resolve, reject) =>
    request(`${mock.url}/v1/topics`, { headers: { Authorization: `ApiKey ${key}` } }, (res) =>
      res.resume().on('end', resolve)
    )
      .on('error', reject)
      .end()
  )
for (let i = 0; i < KEYS; i++) await get(`alloc-sites-${i}`)
await mock.close()
await post('HeapProfiler.collectGarbage')
const chunks = []
session.on('HeapProfiler.addHeapSnapshotChunk', (message) => chunks.push(message.params.chunk))
await post('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
// Read before the tracking stops: stopping sends a snapshot of its own through the same event.
const snapshot = JSON.parse(chunks.join(''))
session.disconnect()

const { meta } = snapshot.snapshot
const nodeFields = meta.node_fields.length
const SIZE = meta.node_fields.indexOf('self_size')
const TRACE = meta.node_fields.indexOf('trace_node_id')
const infoFields = meta.trace_function_info_fields.length
const traceFields = meta.trace_node_fields.length
const { strings } = snapshot
const frame = (info) => {
  const at = info * infoFields
  const name = strings[snapshot.trace_function_infos[at + 1]] || '(anonymous)'
  const script = strings[snapshot.trace_function_infos[at + 2]] ?? ''
  const line = snapshot.trace_function_infos[at + 4]
  return { name, where: `${script.split('/').pop()}:${line}` }
}

// The trace tree, flattened: each trace node's function and parent.
const parent = new Map()
const infoOf = new Map()
const walk = (children, up) => {
  for (let i = 0; i < children.length; i += traceFields) {
    parent.set(children[i], up)
    infoOf.set(children[i], children[i + 1])
    walk(children[i + 4], children[i])
  }
}
walk(snapshot.trace_tree, 0)

const MODULE = /\.(c|m)?js$|^(dist|node_modules)\//
const byFrame = new Map()
const byModule = new Map()
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes)
let total = 0
for (let i = 0; i < snapshot.nodes.length; i += nodeFields) {
  const bytes = snapshot.nodes[i + SIZE]
  total += bytes
  let trace = snapshot.nodes[i + TRACE]
  if (!trace) {
    add(byFrame, '(V8: code, maps and other objects with no JavaScript stack)', bytes)
    continue
  }
  const own = frame(infoOf.get(trace))
  add(byFrame, `${own.name} ${own.where}`, bytes)
  let module = '(no module frame: the bundle top level or Node)'
  for (; trace; trace = parent.get(trace)) {
    const { name } = frame(infoOf.get(trace))
    if (MODULE.test(name)) {
      module = name
      break
    }
  }
  add(byModule, module, bytes)
}

const print = (title, map) => {
  console.log(`\n${title}`)
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, ROWS))
    console.log(`${(bytes / 1024).toFixed(0).padStart(7)} kB  ${key}`)
}
console.log(`live heap after the start and ${KEYS} keys: ${(total / 1024 / 1024).toFixed(2)} MB`)
print('by the frame that allocated it', byFrame)
print('by the innermost module frame on its stack', byModule)
process.exit(0)
