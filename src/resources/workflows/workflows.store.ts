import { createHash } from 'node:crypto'
import type { Workflow } from './workflows.types.js'
import { duplicateId } from '../../tenancy/unique-ids.js'
import { shapePattern, valuesInShape, type ShapePattern } from './shape-match.js'
import {
  fill,
  markSlots,
  markedDocument,
  partialFill,
  slotMarker,
  templateOf,
  type SlotValue,
  type Slotted,
  type Template,
} from './workflow-template.js'

/**
 * A stored workflow: its document either as the object it was built as (scenario and imported
 * workflows, which stay as they are) or as a template and its own values (everything a write
 * creates; see workflow-template.ts).
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

/** A template shared by the workflows whose documents differ only in their slot values. */
export interface Shape {
  readonly template: Template
  readonly fields: Slotted['fields']
  readonly identifier?: number
  readonly plainSlots: ReadonlySet<number>
  readonly valueCount: number
}

/**
 * Caches for the whole process, so that they do not grow with the number of environments, and
 * for workflows up to 32 kB of JSON, so that they stay small beside what the budget counts.
 *
 * Hydrated workflows, most recently used last: a workflow read again (a status toggled, a
 * trigger fired) is not parsed again; a store's writes keep its entries current.
 */
const HOT_WORKFLOWS = 256
const CACHED_SHAPE_SIZE = 32 * 1024
const hot = new Map<Stored, Workflow>()
function remember(stored: Stored, workflow: Workflow) {
  hot.delete(stored)
  if (stored.shape && stored.shape.template.size > CACHED_SHAPE_SIZE) return
  hot.set(stored, workflow)
  if (hot.size > HOT_WORKFLOWS) hot.delete(hot.keys().next().value as Stored)
}

/**
 * Renders of a shape's document (a route's answer) as templates on the same values, made the
 * second time a shape is rendered so: a shape used once is not worth one. All are dropped once
 * they add up to 8 MB of text, by starting a new map. Weakly held: a store that is reset or
 * dropped takes its shapes and their renders with it (a set of the cached shapes, kept to drop
 * them, held every dead store's shapes until the 8 MB were reached).
 */
let renders = new WeakMap<Shape, Map<string, Template | null>>()
const MAX_RENDER_TEXT = 8 * 1024 * 1024
/** The text of the renders made since the map was new (some of it may be collected already). */
let renderText = 0
function renderTemplate(shape: Shape, key: string, make: () => Template): Template | undefined {
  if (shape.template.size > CACHED_SHAPE_SIZE) return undefined
  let ofShape = renders.get(shape)
  if (!ofShape) renders.set(shape, (ofShape = new Map()))
  const found = ofShape.get(key)
  if (found) return found
  if (found === undefined) {
    ofShape.set(key, null)
    return undefined
  }
  const template = make()
  renderText += template.size
  if (renderText > MAX_RENDER_TEXT) {
    renderText = template.size
    renders = new WeakMap()
    renders.set(shape, (ofShape = new Map()))
  }
  ofShape.set(key, template)
  return template
}

/**
 * One workflow's renders with their changing top-level fields as slots, for the workflows
 * rendered lately: by the version of the rest of the workflow, which they hold while it lasts.
 */
const slotted = new Map<Stored, Map<string, { version: number; template: Template }>>()
const SLOTTED_WORKFLOWS = 256
/** Fields a status change writes; a change to any other moves the workflow's version. */
const STATUS_FIELDS = new Set(['active', 'draft', 'status', 'updatedAt'])

/**
 * Renders of one workflow with all but its in-place fields filled (a status toggle then fills
 * four slots, not fifty), for the workflows rendered more than once lately: by the values they
 * were filled from, which a change of template replaces.
 */
const HOT_RENDERS = 256
const ownRenders = new Map<SlotValue[], Map<string, Template | null>>()
function ownRender(shape: Shape, values: SlotValue[], key: string, template: Template) {
  let ofValues = ownRenders.get(values)
  if (ofValues) {
    ownRenders.delete(values)
    ownRenders.set(values, ofValues)
  } else {
    ownRenders.set(values, (ofValues = new Map()))
    if (ownRenders.size > HOT_RENDERS)
      ownRenders.delete(ownRenders.keys().next().value as SlotValue[])
  }
  const found = ofValues.get(key)
  if (found) return found
  if (found === undefined) {
    ofValues.set(key, null)
    return template
  }
  const open = new Set(Object.values(shape.fields))
  const own = partialFill(template, values, open)
  ofValues.set(key, own)
  return own
}

/**
 * The patterns of the shapes marked lately, most recent last, for shapes up to 32 kB of JSON: a
 * workflow of one of them (a body sent again) finds its values beside it, unmarked
 * (shape-match.ts). A pattern is about the size of a parsed workflow.
 */
const SHAPE_PATTERNS = 32
const patterns = new Map<Shape, ShapePattern>()
function notePattern(shape: Shape, slotted: Slotted) {
  patterns.delete(shape)
  if (shape.template.size > CACHED_SHAPE_SIZE) return
  const { marked, plainSlots, values } = slotted
  patterns.set(shape, shapePattern(marked as Record<string, unknown>, plainSlots, values.length))
  if (patterns.size > SHAPE_PATTERNS) patterns.delete(patterns.keys().next().value as Shape)
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
  /** Shapes by the text of their template, so that equal ones are one. */
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

  function shapeOf(slotted: Slotted): Shape {
    const template = templateOf(slotted.marked, slotted)
    // By a digest of the text: the text itself would be a second copy of every template.
    const key = createHash('sha1')
      .update(template.parts.join('\u0000'))
      .update(template.slots.join(','))
      .digest('base64')
    let shape = shapes.get(key)
    if (!shape) {
      shape = {
        template,
        fields: slotted.fields,
        ...(slotted.identifier !== undefined ? { identifier: slotted.identifier } : {}),
        plainSlots: slotted.plainSlots,
        valueCount: slotted.values.length,
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

  /** Keeps the workflow as a template and values. */
  function compact(stored: Stored, workflow: Workflow) {
    const recent = recentShapeOf(workflow)
    if (recent) {
      stored.shape = recent.shape
      stored.values = recent.values
    } else {
      const slotted = markSlots(workflow)
      stored.shape = shapeOf(slotted)
      stored.values = slotted.values
      notePattern(stored.shape, slotted)
    }
    noteRecent(stored.shape)
    stored.object = undefined
  }

  /** The workflow's document as an object: the hot one, or parsed from its template. */
  function hydrate(stored: Stored, keep = true): Workflow {
    if (stored.object) return stored.object
    const found = hot.get(stored)
    if (found) {
      if (keep) remember(stored, found)
      return found
    }
    const workflow = JSON.parse(fill(stored.shape!.template, stored.values!)) as Workflow
    if (keep) remember(stored, workflow)
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
   * A new workflow: kept as the object it is, or (`compact`) as a template and values, the
   * object staying the hot copy. A template pays when workflows share it (repeated-bodies.ts).
   */
  function add(workflow: Workflow, { compact: asTemplate = false } = {}) {
    const stored = insert(storedOf(workflow))
    if (!asTemplate) {
      stored.object = workflow
      return workflow
    }
    compact(stored, workflow)
    remember(stored, workflow)
    return workflow
  }
  for (const workflow of initial) insert(storedOf(workflow)).object = workflow

  /** After a change to the object: its values again, and its template if its shape changed. */
  function changed(workflow: Workflow) {
    const stored = byId.get(workflow._id)
    if (!stored || stored.object) return
    compact(stored, workflow)
    remember(stored, workflow)
  }

  return {
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
    /** Live workflows that have a trigger identifier (every live workflow has one). */
    liveCount: () => live,
    live: () =>
      [...byId.values()]
        .filter((stored) => !stored.deleted)
        .map((stored) => hydrate(stored, false)),
    /**
     * The JSON text of `render(workflow)` for a live workflow: for one kept as a template, made
     * from a template of the render, built once per shape and `key`, on the workflow's values.
     * The render must not test the values it copies (see `markedDocument`).
     */
    rendered(id: string, key: string, render: (workflow: Workflow) => unknown): string {
      const stored = byId.get(id) as Stored
      const { shape, values } = stored
      const template =
        shape &&
        renderTemplate(shape, key, () =>
          templateOf(render(markedDocument(shape.template) as Workflow), shape)
        )
      if (!template || !values) return JSON.stringify(render(hydrate(stored)))
      return fill(ownRender(shape, values, key, template), values)
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
      // A field the answer leaves out (undefined) has no text to fill in: no template then.
      if (values.includes(undefined as unknown as SlotValue))
        return JSON.stringify(render(workflow))
      const version = stored?.version ?? 0
      const ofThis = stored && slotted.get(stored)
      const found = ofThis?.get(key)
      if (ofThis && found && found.version === version) {
        slotted.delete(stored as Stored)
        slotted.set(stored as Stored, ofThis)
        return fill(found.template, values)
      }
      const out = render(workflow)
      if (!stored || !cacheable(workflow)) return JSON.stringify(out)
      const marked = { ...out }
      names.forEach((name, i) => (marked[name] = slotMarker(i)))
      const template = templateOf(marked, { plainSlots: new Set() })
      if (template.slots.length !== names.length || template.size > CACHED_SHAPE_SIZE * 4)
        return JSON.stringify(out)
      let ofStored = slotted.get(stored)
      if (!ofStored) {
        slotted.set(stored, (ofStored = new Map()))
        if (slotted.size > SLOTTED_WORKFLOWS) slotted.delete(slotted.keys().next().value as Stored)
      }
      ofStored.set(key, { version, template })
      return fill(template, values)
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
      // template stays (unless the document gains a field, `status` the first time).
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
        remember(stored, workflow)
      } else changed(workflow)
      return workflow
    },
  }
}

export type WorkflowStore = ReturnType<typeof createWorkflowStore>
