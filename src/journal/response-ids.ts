/** How much of a response the journal keeps to find ids in, and how many it reports. */
export const RESPONSE_HEAD_BYTES = 4096
const MAX_IDS = 50
const OBJECT_ID = /^[0-9a-f]{24}$/

/** A key as a segment of the JSON paths the replay's `save` reads; undefined when they cannot name it. */
function keySegment(key: string): string | undefined {
  if (/^[^.[\]'"]+$/.test(key)) return `.${key}`
  if (!key.includes("'")) return `['${key}']`
  return key.includes('"') ? undefined : `["${key}"]`
}

interface Frame {
  kind: 'object' | 'array'
  /** The path of the container itself; undefined below a key no path can name. */
  path: string | undefined
  /** Objects: the key whose value comes next; arrays: the index of the next element. */
  key?: string
  index: number
  /** Objects: whether the next string is a key. */
  expectKey: boolean
}

/**
 * The 24-hex strings of a JSON text, by JSON path (`$.data._id`, `$.data[0].steps[1]._id`), in
 * the order they appear. The text may be cut short (the journal keeps only its head): whatever
 * precedes the cut is read, the rest ignored. Anything that is not JSON gives nothing.
 */
export function idsInJson(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  let found = 0
  const stack: Frame[] = []
  let i = 0
  const valuePath = (): string | undefined => {
    const top = stack.at(-1)
    if (!top) return '$'
    if (top.path === undefined) return undefined
    if (top.kind === 'array') return `${top.path}[${top.index}]`
    const segment = keySegment(top.key ?? '')
    return segment === undefined ? undefined : top.path + segment
  }
  const afterValue = () => {
    const top = stack.at(-1)
    if (top?.kind === 'array') top.index++
    else if (top) top.expectKey = true
  }
  while (i < text.length && found < MAX_IDS) {
    const ch = text[i] as string
    if (ch === '{' || ch === '[') {
      stack.push({
        kind: ch === '{' ? 'object' : 'array',
        path: valuePath(),
        index: 0,
        expectKey: ch === '{',
      })
      i++
    } else if (ch === '}' || ch === ']') {
      stack.pop()
      afterValue()
      i++
    } else if (ch === '"') {
      // A string: find its end, honouring escapes; a string cut short ends the scan.
      let j = i + 1
      let escaped = false
      while (j < text.length && (escaped || text[j] !== '"')) {
        escaped = !escaped && text[j] === '\\'
        j++
      }
      if (j >= text.length) break
      const raw = text.slice(i + 1, j)
      const top = stack.at(-1)
      if (top?.kind === 'object' && top.expectKey) {
        top.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw
        top.expectKey = false
      } else {
        const path = valuePath()
        if (path !== undefined && OBJECT_ID.test(raw)) {
          out[path] = raw
          found++
        }
        afterValue()
      }
      i = j + 1
    } else if (
      ch === ',' ||
      ch === ':' ||
      ch === ' ' ||
      ch === '\n' ||
      ch === '\r' ||
      ch === '\t'
    ) {
      i++
    } else {
      // A number, true, false or null: skip to the next delimiter.
      let j = i
      while (j < text.length && !',}] \n\r\t'.includes(text[j] as string)) j++
      if (j >= text.length) break
      afterValue()
      i = j
    }
  }
  return out
}
