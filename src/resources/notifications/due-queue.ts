/**
 * Items waiting for a time, earliest first and, at the same time, in the order they were
 * queued: a binary heap, so that queueing and taking the next cost log n, and taking one out
 * early (a cancel) costs nothing until it reaches the top, or until the dead outnumber the
 * living and the heap is rebuilt without them. Times compare as numbers.
 */

interface Entry<T> {
  item: T
  due: number
  seq: number
  live: boolean
}

const before = <T>(a: Entry<T>, b: Entry<T>) => a.due < b.due || (a.due === b.due && a.seq < b.seq)

export function createDueQueue<T>() {
  let heap: Entry<T>[] = []
  const live = new Map<T, Entry<T>>()
  let seq = 0
  let dead = 0

  function up(index: number) {
    const entry = heap[index] as Entry<T>
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!before(entry, heap[parent] as Entry<T>)) break
      heap[index] = heap[parent] as Entry<T>
      index = parent
    }
    heap[index] = entry
  }

  function down(index: number) {
    const entry = heap[index] as Entry<T>
    for (;;) {
      let child = 2 * index + 1
      if (child >= heap.length) break
      const right = child + 1
      if (right < heap.length && before(heap[right] as Entry<T>, heap[child] as Entry<T>))
        child = right
      if (!before(heap[child] as Entry<T>, entry)) break
      heap[index] = heap[child] as Entry<T>
      index = child
    }
    heap[index] = entry
  }

  function pop() {
    if (!(heap[0] as Entry<T>).live) dead--
    const last = heap.pop() as Entry<T>
    if (heap.length) {
      heap[0] = last
      down(0)
    }
  }

  function bury(entry: Entry<T>) {
    entry.live = false
    if (++dead <= 1024 || dead <= live.size) return
    heap = heap.filter((e) => e.live)
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i)
    dead = 0
  }

  /** The first live entry, the dead ones above it dropped. */
  function top(): Entry<T> | undefined {
    while (heap.length && !(heap[0] as Entry<T>).live) pop()
    return heap[0]
  }

  return {
    /** Queues the item for `due` (ms); an item already queued moves to its new time. */
    add(item: T, due: number) {
      const old = live.get(item)
      if (old) bury(old)
      const entry = { item, due: Number.isNaN(due) ? Infinity : due, seq: seq++, live: true }
      live.set(item, entry)
      heap.push(entry)
      up(heap.length - 1)
    },
    remove(item: T) {
      const entry = live.get(item)
      if (!entry) return
      live.delete(item)
      bury(entry)
    },
    /** The earliest item due at `now` (ms), taken off the queue. */
    takeDue(now: number): T | undefined {
      const first = top()
      if (!first || first.due > now) return undefined
      pop()
      live.delete(first.item)
      return first.item
    },
    /** When the earliest item is due (ms), or undefined when none waits. */
    nextDue: (): number | undefined => top()?.due,
    has: (item: T) => live.has(item),
    /** Whether `a` comes out before `b` (both queued). */
    before(a: T, b: T): boolean {
      const x = live.get(a)
      const y = live.get(b)
      return Boolean(x && y && before(x, y))
    },
    size: () => live.size,
  }
}
