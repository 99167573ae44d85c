// Where the bytes of stored records go: two heap snapshots of this process, before and after
// some work, and the objects the second holds that the first did not, grouped by what they are
// (an object by its constructor and first property names, a string, an array, a property store).
// `node --expose-gc bench/heap-diff.mjs [workflow|message|subscriber] [count] [2026-08|2024-10]`.
import { getHeapSnapshot } from 'node:v8'
import { pathToFileURL } from 'node:url'
import { DIST } from './harness.mjs'

async function snapshot() {
  globalThis.gc?.()
  globalThis.gc?.()
  const chunks = []
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/** Every live node of a snapshot as { id, label, size }. */
function nodesOf(snap) {
  const { meta } = snap.snapshot
  const nodeFields = meta.node_fields.length
  const edgeFields = meta.edge_fields.length
  const types = meta.node_types[0]
  const edgeTypes = meta.edge_types[0]
  const at = (name) => meta.node_fields.indexOf(name)
  const [TYPE, NAME, ID, SIZE, EDGES] = ['type', 'name', 'id', 'self_size', 'edge_count'].map(at)
  const EDGE_TYPE = meta.edge_fields.indexOf('type')
  const EDGE_NAME = meta.edge_fields.indexOf('name_or_index')
  const { nodes, edges, strings } = snap
  const out = []
  let edge = 0
  for (let i = 0; i < nodes.length; i += nodeFields) {
    const type = types[nodes[i + TYPE]]
    const count = nodes[i + EDGES]
    let label
    if (type === 'object') {
      const names = []
      for (let e = 0; e < count && names.length < 3; e++) {
        const base = edge + e * edgeFields
        if (edgeTypes[edges[base + EDGE_TYPE]] === 'property')
          names.push(strings[edges[base + EDGE_NAME]])
      }
      label = `${strings[nodes[i + NAME]]} {${names.join(',')}${names.length === 3 ? ',…' : ''}}`
    } else if (type === 'string' || type === 'concatenated string' || type === 'sliced string')
      label = type
    else label = `${type} ${strings[nodes[i + NAME]]}`.slice(0, 60)
    out.push({ id: nodes[i + ID], label, size: nodes[i + SIZE] })
    edge += count * edgeFields
  }
  return out
}

/** Runs `work` between two snapshots; answers the new objects grouped by label, largest first. */
export async function heapDiff(work, { top = 25 } = {}) {
  const before = new Set(nodesOf(await snapshot()).map((n) => n.id))
  const kept = await work()
  const after = nodesOf(await snapshot())
  const groups = new Map()
  let total = 0
  for (const node of after) {
    if (before.has(node.id)) continue
    const group = groups.get(node.label) ?? { label: node.label, count: 0, bytes: 0 }
    group.count++
    group.bytes += node.size
    total += node.size
    groups.set(node.label, group)
  }
  void kept
  const rows = [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top)
  return { total, rows }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [kind = 'workflow', countArg = '2000', generation = '2026-08'] = process.argv.slice(2)
  const count = Number(countArg)
  const { createMock } = await import(pathToFileURL(`${DIST}/index.js`).href)
  const { storeRecords } = await import('./records.mjs')
  const mock = createMock({
    apiGeneration: generation,
    maxWorkflows: 0,
    journalSize: 0,
    logLevel: 'silent',
    scenario: 'empty',
    maxMemoryMb: 4096,
  })
  const prepared = await storeRecords(mock, kind, 1)
  const { total, rows } = await heapDiff(() => prepared.more(count))
  console.log(
    `${kind} × ${count} (${generation}): ${Math.round(total / count)} bytes each in new objects`
  )
  console.table(
    rows.map((r) => ({
      what: r.label,
      count: r.count,
      'per record': +(r.count / count).toFixed(2),
      'bytes per record': Math.round(r.bytes / count),
    }))
  )
}
