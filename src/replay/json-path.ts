/** One step into a JSON value: an object key or an array index. */
export type PathSegment = string | number

const SEGMENT = /^(?:\.([^.[\]'"]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])/

/**
 * Parses the small JSON path subset that scripts use: `$`, `$.a.b`, `$.a[0].b`, `$['odd key']`.
 * Anything else (filters, wildcards, slices) is refused rather than half-supported.
 */
export function parseJsonPath(source: string): PathSegment[] | undefined {
  if (!source.startsWith('$')) return undefined
  const segments: PathSegment[] = []
  let rest = source.slice(1)
  while (rest.length > 0) {
    const found = SEGMENT.exec(rest)
    if (!found) return undefined
    const [whole, dotted, index, single, double] = found
    segments.push(index !== undefined ? Number(index) : (dotted ?? single ?? double ?? ''))
    rest = rest.slice(whole.length)
  }
  return segments
}

/** The value at `segments`, or undefined when any step is missing. */
export function readPath(value: unknown, segments: PathSegment[]): unknown {
  let current = value
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined
      current = current[segment]
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current))
        return undefined
      current = (current as Record<string, unknown>)[segment]
    }
  }
  return current
}

/** What a `save` entry may read: a JSON path into the body, `status`, or `headers.<name>`. */
export function isCaptureSource(source: string): boolean {
  if (source === 'status') return true
  if (source.startsWith('headers.')) return source.length > 'headers.'.length
  return parseJsonPath(source) !== undefined
}

export interface CapturedResponse {
  status: number
  headers: Headers
  body: unknown
}

/** Reads a `save` source from a response; undefined when it is not there. */
export function readCapture(source: string, response: CapturedResponse): unknown {
  if (source === 'status') return response.status
  if (source.startsWith('headers.'))
    return response.headers.get(source.slice('headers.'.length)) ?? undefined
  const segments = parseJsonPath(source)
  return segments ? readPath(response.body, segments) : undefined
}
