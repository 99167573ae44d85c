import { getHeapStatistics } from 'node:v8'
import { httpError } from '../errors.js'

export const DEFAULT_MAX_MEMORY_MB = 512
export const MB = 1024 * 1024

/**
 * What V8's heap needs besides the data the budget counts: Node and the modules (about 30 MB),
 * a 20 MB body while it is parsed, the responses being written. A budget closer to the heap
 * limit than this would let V8 abort the process instead of the mock answering 403.
 */
const HEAP_HEADROOM = 160 * MB

/**
 * A journal entry at its largest: Node lets 16 kB of request line and headers through, the body
 * is cut at 2 kB (4 kB in memory when it holds non-Latin-1 text), plus the entry's own fields;
 * and its slot's byte regions (journal.ts): 1.5 kB of texts, 4 kB of a long answer's head.
 */
export const JOURNAL_ENTRY_BYTES = 26 * 1024

/** The budget in bytes, and whether Node's heap limit, not the option, set it. */
export function budgetLimit(
  requestedMb: number,
  heapLimit = getHeapStatistics().heap_size_limit
): { bytes: number; cappedByHeap: boolean } {
  const requested = requestedMb * MB
  const fits = Math.max(Math.floor(heapLimit / 4), heapLimit - HEAP_HEADROOM)
  return requested <= fits
    ? { bytes: requested, cappedByHeap: false }
    : { bytes: fits, cappedByHeap: true }
}

export const megabytes = (bytes: number) => `${Math.ceil(bytes / MB)} MB`

/**
 * The one memory budget of the process: named parts (the journal, the scenario, the
 * environments, the chaos rules) hold estimates, and new work is admitted only when its
 * estimate fits beside them. A part may be computed on demand, for what shrinks by itself.
 */
export function createMemoryBudget(requestedMb: number, heapLimit?: number) {
  const { bytes: limit, cappedByHeap } = budgetLimit(requestedMb, heapLimit)
  const parts = new Map<string, number>()
  const computed = new Map<string, () => number>()
  const reclaimers: (() => void)[] = []
  let total = 0

  function set(part: string, bytes: number) {
    total += bytes - (parts.get(part) ?? 0)
    parts.set(part, bytes)
  }

  function refresh() {
    for (const [part, compute] of computed) set(part, compute())
  }

  /** The budget as messages name it, with the option that raises it. */
  const described = `${megabytes(limit)} (--max-memory-mb, MAX_MEMORY_MB${
    cappedByHeap
      ? `; capped by Node's heap limit, which NODE_OPTIONS=--max-old-space-size=N raises`
      : ''
  })`

  function failure(what: string, needed: number) {
    const used = [...parts].filter(([, bytes]) => bytes > 0)
    const breakdown = used.map(([part, bytes]) => `${part} ${megabytes(bytes)}`).join(', ')
    return httpError(
      403,
      `novu-mock's memory budget of ${described} ` +
        `cannot hold ${what}: it needs about ${megabytes(needed)} and ${megabytes(Math.max(0, limit - total))} ` +
        `is free (${breakdown || 'nothing held'}). Reset environments with POST /__admin/reset, ` +
        `reuse API keys, or raise --max-memory-mb`
    )
  }

  function fits(bytes: number, freed = 0): boolean {
    if (total - freed + bytes <= limit) return true
    refresh()
    if (total - freed + bytes <= limit || reclaimers.length === 0)
      return total - freed + bytes <= limit
    for (const reclaim of reclaimers) reclaim()
    refresh()
    return total - freed + bytes <= limit
  }

  return {
    limit,
    described,
    requestedMb,
    cappedByHeap,
    used: () => total,
    /** A part's bytes, computed now when it is computed on demand. */
    get(part: string) {
      const compute = computed.get(part)
      if (compute) set(part, compute())
      return parts.get(part) ?? 0
    },
    set,
    /** A part whose size is computed when the budget runs short (rules that expire by themselves). */
    compute(part: string, compute: () => number) {
      computed.set(part, compute)
      set(part, compute())
    },
    /**
     * A computed part that can be given back (caches): emptied by `reclaim` before any work is
     * refused, so that data always wins over what only speeds answers up.
     */
    reclaimable(part: string, compute: () => number, reclaim: () => void) {
      computed.set(part, compute)
      reclaimers.push(reclaim)
      set(part, compute())
    },
    /** Whether `bytes` more fit, counting the `freed` bytes the work releases as free. */
    fits,
    /** Throws a 403 naming the budget and its option unless `bytes` more fit. */
    admit(bytes: number, what: string, freed = 0): void {
      if (!fits(bytes, freed)) throw failure(what, bytes)
    },
  }
}

export type MemoryBudget = ReturnType<typeof createMemoryBudget>
