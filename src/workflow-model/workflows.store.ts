import { createHash } from 'node:crypto'
import type { Workflow } from './workflows.types.js'
import { duplicateId } from '../tenancy/unique-ids.js'
import { shapePattern, valuesInShape, type ShapePattern } from './compact/shape-match.js'
import {
  fill,
  markSlots,
  markedDocument,
  partialFill,
  slotMarker,
  frameOf,
  type SlotValue,
  type Slotted,
  type Frame,
} from './compact/compact-workflow.js'
import { BoundedCache, identityOf } from '../cache.js'
import { jsonHeapBytes, scalarsHeapBytes } from '../memory/estimate.js'

/**
 * A stored workflow: its document either as the object it was built as (scenario and imported
 * workflows, which stay as they are) or as a frame and its own values (everything a write
 * creates; see compact/compact-workflow.ts).
 */
interface Stored {
  readonly _id: string
  /** Changed only by `rename`, which moves the index with it. */
  identifier: string | undefined
  deleted: boolean
  /** Moves with every change but a status change's (see `renderedWithSlots`). */
  version?: number
  object?: Workflow
  shape?: Shape
  values?: SlotValue[]
}

/** A frame shared by the workflows whose documents differ only in their slot values. */
export interface Shape {
  readonly frame: Frame
  readonly fields: Slotted['fields']
  readonly identifier?: number
  readonly plainSlots: ReadonlySet<number>
  readonly valueCount: number
  /** The workflow whose compaction made it: the memory budget counts the frame with that one. */
  readonly madeFor: string
}

/**
 * What a stored workflow holds besides its values: its entry (an object of seven fields), the
 * store's index entries by id and by trigger identifier. Measured with bench/budget.mjs.
 */
const STORED_BYTES = 400

/**
 * Caches for the whole process (cache.ts), so that they do not grow with the number of
 * environments, and for workflows up to 32 kB of JSON, so that they stay small beside what the
 * budget counts. Each entry is stored for its store, which a reset releases.
 *
 * Hydrated workflows, most recently used last: a workflow read again (a status toggled, a
 * trigger fired) is not parsed again; a store's writes keep its entries current.
 */
const CACHED_SHAPE_SIZE = 32 * 1024
/** What a parsed workflow weighs beside its JSON text (of `size` characters). */
const parsedBytes = (size: number) => 3 * size
const hot = new BoundedCache<Stored, Workflow>('hydrated workflows', {
  maxEntries: 256,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (_workflow, stored) => parsedBytes(stored.shape?.frame.size ?? 0),
})
function remember(scope: object, stored: Stored, workflow: Workflow) {
  if (stored.shape && stored.shape.frame.size > CACHED_SHAPE_SIZE) hot.delete(stored)
  else hot.set(stored, workflow, scope)
}

/**
 * Renders of a shape's document (a route's answer) as frames on the same values, made the
 * second time a shape is rendered so (null marks the first): a shape used once is not worth one.
 */
const renders = new BoundedCache<string, Frame | null>('workflow render frames', {
  maxEntries: 4096,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (frame) => 2 * (frame?.size ?? 0),
})
function renderFrame(
  scope: object,
  shape: Shape,
  key: string,
  make: () => Frame
): Frame | undefined {
  if (shape.frame.size > CACHED_SHAPE_SIZE) return undefined
  const id = `${identityOf(shape)} ${key}`
  const found = renders.get(id)
  if (found) return found
  if (found === undefined) {
    renders.set(id, null, scope)
    return undefined
  }
  const frame = make()
  renders.set(id, frame, scope)
  return frame
}

/**
 * One workflow's renders with their changing top-level fields as slots, for the workflows
 * rendered lately: by the version of the rest of the workflow, which they hold while it lasts.
 */
const slotted = new BoundedCache<Stored, Map<string, { version: number; frame: Frame }>>(
  'workflow slotted renders',
  { maxEntries: 256, maxBytes: 16 * 1024 * 1024, sizeOf: (renders) => framesBytes(renders) }
)
/** The text of the frames kept in a map (measured when its entry is stored again). */
function framesBytes(map: Map<string, { frame: Frame } | Frame | null>) {
  let bytes = 0
  for (const held of map.values())
    if (held) bytes += 2 * ('frame' in held ? held.frame.size : held.size)
  return bytes
}
/** Fields a status change writes; a change to any other moves the workflow's version. */
const STATUS_FIELDS = new Set(['active', 'draft', 'status', 'updatedAt'])

/**
 * Renders of one workflow with all but its in-place fields filled (a status toggle then fills
 * four slots, not fifty), for the workflows rendered more than once lately: by the values they
 * were filled from, which a change of frame replaces.
 */
const ownRenders = new BoundedCache<SlotValue[], Map<string, Frame | null>>(
  'workflow own renders',
  { maxEntries: 256, maxBytes: 16 * 1024 * 1024, sizeOf: (renders) => framesBytes(renders) }
)
function ownRender(scope: object, shape: Shape, values: SlotValue[], key: string, frame: Frame) {
  const ofValues = ownRenders.get(values) ?? new Map<string, Frame | null>()
  const found = ofValues.get(key)
  if (found) return found
  if (found === undefined) {
    ofValues.set(key, null)
    ownRenders.set(values, ofValues, scope)
    return frame
  }
  const open = new Set(Object.values(shape.fields))
  const own = partialFill(frame, values, open)
  ofValues.set(key, own)
  ownRenders.set(values, ofValues, scope)
  return own
}

/**
 * The patterns of the shapes marked lately, most recent last, for shapes up to 32 kB of JSON: a
 * workflow of one of them (a body sent again) finds its values beside it, unmarked
 * (shape-match.ts). A pattern is about the size of a parsed workflow.
 */
const patterns = new BoundedCache<Shape, ShapePattern>('workflow shape patterns', {
  maxEntries: 32,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (_pattern, shape) => parsedBytes(shape.frame.size),
})
function notePattern(scope: object, shape: Shape, slotted: Slotted) {
  patterns.delete(shape)
  if (shape.frame.size > CACHED_SHAPE_SIZE) return
  const { marked, plainSlots, values } = slotted
  const pattern = shapePattern(marked as Record<string, unknown>, plainSlots, values.length)
  patterns.set(shape, pattern, scope)
}
/** How many of a store's latest shapes a compaction tries before it marks the workflow. */
const RECENT_SHAPES = 2

/**
 * Workflows by id in creation order, with the live trigger identifiers (each to the live
 * workflows that have it, oldest first).
 */
export function createWorkflowStore(initial: Workflow[]) {
  const byId = new Map<string, Stored>()
  const identifiers = new Map<string, Stored[]>()
  let live = 0
  /** Shapes by the text of their frame, so that equal ones are one. */
  const shapes = new Map<string, Shape>()

  function countIdentifier(stored: Stored, delta: number) {
    const id = stored.identifier
    if (id === undefined || stored.deleted) return
    live += delta
    const list = identifiers.get(id) ?? []
    const next = delta > 0 ? [...list, stored] : list.filter((s) => s !== stored)
    if (next.length) identifiers.set(id, next)
    else identifiers.delete(id)
  }

  function shapeOf(slotted: Slotted, id: string): Shape {
    const frame = frameOf(slotted.marked, slotted)
    // By a digest of the text: the text itself would be a second copy of every frame.
    const key = createHash('sha1')
      .update(frame.parts.join('\u0000'))
      .update(frame.slots.join(','))
      .digest('base64')
    let shape = shapes.get(key)
    if (!shape) {
      shape = {
        frame,
        fields: slotted.fields,
        ...(slotted.identifier !== undefined ? { identifier: slotted.identifier } : {}),
        plainSlots: slotted.plainSlots,
        valueCount: slotted.values.length,
        madeFor: id,
      }
      shapes.set(key, shape)
    }
    return shape
  }

  /** This store's shapes compacted lately, the latest first. */
  const recentShapes: Shape[] = []

  /** The workflow's shape and values, if it has one of the latest shapes. */
  function recentShapeOf(workflow: Workflow) {
    for (const shape of recentShapes) {
      const pattern = patterns.get(shape)
      const values = pattern && valuesInShape(pattern, workflow)
      if (values) return { shape, values }
    }
    return undefined
  }

  function noteRecent(shape: Shape) {
    const at = recentShapes.indexOf(shape)
    if (at === 0) return
    if (at > 0) recentShapes.splice(at, 1)
    else if (recentShapes.length >= RECENT_SHAPES) recentShapes.pop()
    recentShapes.unshift(shape)
  }

  /** Keeps the workflow as a frame and values. */
  function compact(stored: Stored, workflow: Workflow) {
    const recent = recentShapeOf(workflow)
    if (recent) {
      stored.shape = recent.shape
      stored.values = recent.values
    } else {
      const slotted = markSlots(workflow)
      stored.shape = shapeOf(slotted, stored._id)
      stored.values = slotted.values
      notePattern(store, stored.shape, slotted)
    }
    noteRecent(stored.shape)
    stored.object = undefined
  }

  /** The workflow's document as an object: the hot one, or parsed from its frame. */
  function hydrate(stored: Stored, keep = true): Workflow {
    if (stored.object) return stored.object
    const found = hot.get(stored)
    if (found) return found
    const workflow = JSON.parse(fill(stored.shape!.frame, stored.values!)) as Workflow
    if (keep) remember(store, stored, workflow)
    return workflow
  }

  function insert(stored: Stored) {
    if (byId.has(stored._id)) throw duplicateId('notificationtemplates', stored._id)
    byId.set(stored._id, stored)
    countIdentifier(stored, 1)
    return stored
  }

  const storedOf = (workflow: Workflow) =>
    ({
      _id: workflow._id,
      identifier: workflow.triggers?.[0]?.identifier,
      deleted: workflow.deleted === true,
    }) as Stored

  /**
   * A new workflow: kept as the object it is, or (`compact`) as a frame and values, the
   * object staying the hot copy. A frame pays when workflows share it (repeated-bodies.ts).
   */
  function add(workflow: Workflow, { compact: asFrame = false } = {}) {
    const stored = insert(storedOf(workflow))
    if (!asFrame) {
      stored.object = workflow
      return workflow
    }
    compact(stored, workflow)
    remember(store, stored, workflow)
    return workflow
  }
  for (const workflow of initial) insert(storedOf(workflow)).object = workflow

  /** After a change to the object: its values again, and its frame if its shape changed. */
  function changed(workflow: Workflow) {
    const stored = byId.get(workflow._id)
    if (!stored || stored.object) return
    compact(stored, workflow)
    remember(store, stored, workflow)
  }

  /** The store, which its cache entries are stored for (a reset releases them). */
  const store = {
    add,
    all: (): Workflow[] => [...byId.values()].map((stored) => hydrate(stored, false)),
    /** A live (not deleted) workflow, as every read upstream excludes soft-deleted ones. */
    get(id: string) {
      const stored = byId.get(id)
      return stored && !stored.deleted ? hydrate(stored) : undefined
    },
    /** The first live workflow (in creation order) with this trigger identifier. */
    byIdentifier(identifier: string) {
      const stored = identifiers.get(identifier)?.[0]
      return stored ? hydrate(stored) : undefined
    },
    hasIdentifier: (identifier: string) => identifiers.has(identifier),
    /**
     * The heap a workflow kept as a frame holds: its values, its entry, and the frame when its
     * compaction made it. Undefined for one kept as the object it was built as, which the
     * estimate of its body counts (memory/estimate.ts).
     */
    keptBytes(id: string): number | undefined {
      const stored = byId.get(id)
      if (!stored?.shape || !stored.values) return undefined
      const { frame, madeFor } = stored.shape
      const frameBytes = madeFor === id ? jsonHeapBytes([frame.parts, frame.slots, frame.plain]) : 0
      return STORED_BYTES + scalarsHeapBytes(stored.values) + frameBytes
    },
    /** Live workflows that have a trigger identifier (every live workflow has one). */
    liveCount: () => live,
    live: () =>
      [...byId.values()]
        .filter((stored) => !stored.deleted)
        .map((stored) => hydrate(stored, false)),
    /**
     * The JSON text of `render(workflow)` for a live workflow: for one kept as a frame, made
     * from a frame of the render, built once per shape and `key`, on the workflow's values.
     * The render must not test the values it copies (see `markedDocument`).
     */
    rendered(id: string, key: string, render: (workflow: Workflow) => unknown): string {
      const stored = byId.get(id) as Stored
      const { shape, values } = stored
      const frame =
        shape &&
        renderFrame(store, shape, key, () =>
          frameOf(render(markedDocument(shape.frame) as Workflow), shape)
        )
      if (!frame || !values) return JSON.stringify(render(hydrate(stored)))
      return fill(ownRender(store, shape, values, key, frame), values)
    },
    /** Changes fields in place (never the trigger identifier, which indexes the store). */
    update(workflow: Workflow, changes: Partial<Workflow>) {
      const { triggers: _kept, ...rest } = changes
      Object.assign(workflow, rest)
      const stored = byId.get(workflow._id)
      if (stored && Object.keys(rest).some((field) => !STATUS_FIELDS.has(field)))
        stored.version = (stored.version ?? 0) + 1
      changed(workflow)
      return workflow
    },
    /**
     * The JSON text of `render(workflow)` (an object), whose top-level `fields` are made from what
     * a status change writes alone (active, draft, status, updatedAt; `fields` gives each from
     * the workflow): the render is made once per version of the rest of the workflow, with those
     * fields as slots, then filled. `cacheable` says whether the render may be kept at all (it
     * reads nothing that changes but the workflow, and draws nothing from the generator).
     */
    renderedWithSlots(
      workflow: Workflow,
      key: string,
      render: (workflow: Workflow) => Record<string, unknown>,
      fields: Record<string, (workflow: Workflow) => SlotValue>,
      cacheable: (workflow: Workflow) => boolean
    ): string {
      const stored = byId.get(workflow._id)
      const names = Object.keys(fields)
      const values = names.map((name) => (fields[name] as (w: Workflow) => SlotValue)(workflow))
      // A field the answer leaves out (undefined) has no text to fill in: no frame then.
      if (values.includes(undefined as unknown as SlotValue))
        return JSON.stringify(render(workflow))
      const version = stored?.version ?? 0
      const ofThis = stored && slotted.get(stored)
      const found = ofThis?.get(key)
      if (found && found.version === version) return fill(found.frame, values)
      const out = render(workflow)
      if (!stored || !cacheable(workflow)) return JSON.stringify(out)
      const marked = { ...out }
      names.forEach((name, i) => (marked[name] = slotMarker(i)))
      const frame = frameOf(marked, { plainSlots: new Set() })
      if (frame.slots.length !== names.length || frame.size > CACHED_SHAPE_SIZE * 4)
        return JSON.stringify(out)
      const ofStored = ofThis ?? new Map<string, { version: number; frame: Frame }>()
      ofStored.set(key, { version, frame })
      slotted.set(stored, ofStored, store)
      return fill(frame, values)
    },
    /** A new trigger identifier (PUT /v1/workflows/:id): the index follows it. */
    rename(workflow: Workflow, identifier: string) {
      const stored = byId.get(workflow._id)
      if (stored) countIdentifier(stored, -1)
      const [first, ...rest] = workflow.triggers
      workflow.triggers = [{ ...first, identifier } as Workflow['triggers'][number], ...rest]
      if (stored) {
        stored.identifier = identifier
        countIdentifier(stored, 1)
        stored.version = (stored.version ?? 0) + 1
      }
      changed(workflow)
      return workflow
    },
    /** A soft delete (mongoose-delete): reads skip it and its identifier is free again. */
    remove(workflow: Workflow, at: string) {
      const stored = byId.get(workflow._id)
      if (stored) {
        countIdentifier(stored, -1)
        stored.deleted = true
        stored.version = (stored.version ?? 0) + 1
      }
      workflow.deleted = true
      workflow.deletedAt = at
      changed(workflow)
      return workflow
    },
    setStatus(workflow: Workflow, active: boolean, at: string, status?: string) {
      workflow.active = active
      workflow.draft = !active
      if (status !== undefined) workflow.status = status
      workflow.updatedAt = at
      const stored = byId.get(workflow._id)
      const fields = stored?.shape?.fields
      // The fields a status change writes have slots of their own: their values change, the
      // frame stays (unless the document gains a field, `status` the first time).
      if (
        stored?.values &&
        fields &&
        fields.active !== undefined &&
        fields.draft !== undefined &&
        fields.updatedAt !== undefined &&
        (status === undefined || fields.status !== undefined)
      ) {
        stored.values[fields.active] = active
        stored.values[fields.draft] = !active
        stored.values[fields.updatedAt] = at
        if (status !== undefined) stored.values[fields.status as number] = status
        remember(store, stored, workflow)
      } else changed(workflow)
      return workflow
    },
  }
  return store
}

export type WorkflowStore = ReturnType<typeof createWorkflowStore>
