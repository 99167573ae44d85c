/**
 * Linear stand-ins for the regular expressions upstream's email renderer runs over rendered
 * HTML (and Maily over its attributes). Each gives what its expression gives, but a regular
 * expression retries from every start, and where the end it looks for never comes (`</a/` a
 * hundred thousand times, no `>` after) that is the square of the text's length: minutes on
 * the event loop for a Liquid loop of 49 characters. Each scan here reads a character a
 * bounded number of times.
 */

/** Sticky: the whitespace (as `\s` means it) from `lastIndex`. */
const SPACES = /\s*/y

function skipSpaces(text: string, from: number): number {
  SPACES.lastIndex = from
  SPACES.test(text)
  return SPACES.lastIndex
}

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
const isAlnum = (code: number) => isLetter(code) || (code >= 48 && code <= 57)

/** `/<\/([a-zA-Z][a-zA-Z0-9]*)\s*\/[^>]*>/g` → `</$1>`: `</style/>` closes as browsers close it. */
export function closeSlashedEndTags(html: string): string {
  let out = ''
  let copied = 0
  let at = html.indexOf('</')
  while (at >= 0) {
    let end = at + 2
    if (!isLetter(html.charCodeAt(end))) {
      at = html.indexOf('</', end)
      continue
    }
    while (isAlnum(html.charCodeAt(end))) end++
    const slash = skipSpaces(html, end)
    if (html[slash] !== '/') {
      at = html.indexOf('</', slash)
      continue
    }
    const close = html.indexOf('>', slash + 1)
    // No `>` after this one: none after any later one either.
    if (close < 0) break
    out += `${html.slice(copied, at)}</${html.slice(at + 2, end)}>`
    copied = close + 1
    at = html.indexOf('</', copied)
  }
  return copied ? out + html.slice(copied) : html
}

/** Sticky: up to the next `>` or line end (`.` stops at both). */
const TO_LINE_END = /[^>\n\r\u2028\u2029]*/y

/** `/<!DOCTYPE.*?>/g` → `''`: a DOCTYPE that closes on its line. */
export function removeDoctypes(html: string): string {
  let out = ''
  let copied = 0
  let at = html.indexOf('<!DOCTYPE')
  while (at >= 0) {
    TO_LINE_END.lastIndex = at + 9
    TO_LINE_END.test(html)
    const stop = TO_LINE_END.lastIndex
    if (html[stop] === '>') {
      out += html.slice(copied, at)
      copied = stop + 1
      at = html.indexOf('<!DOCTYPE', copied)
    } else {
      // Every DOCTYPE before `stop` meets the same line end before any `>`.
      at = html.indexOf('<!DOCTYPE', stop)
    }
  }
  return copied ? out + html.slice(copied) : html
}

/** `/<!--[\s\S]*?-->/g` → `''`. */
export function removeComments(html: string): string {
  let out = ''
  let copied = 0
  let at = html.indexOf('<!--')
  while (at >= 0) {
    const close = html.indexOf('-->', at + 4)
    if (close < 0) break
    out += html.slice(copied, at)
    copied = close + 3
    at = html.indexOf('<!--', copied)
  }
  return copied ? out + html.slice(copied) : html
}

/** Sticky: whitespace (at least one) and a closing `</p>`. */
const BLANK_THEN_CLOSE = /\s+<\/p>/y

/** `/<p([^>]*)>\s+<\/p>/g` → `<p$1></p>`: paragraphs of whitespace only emptied. */
export function emptyBlankParagraphs(html: string): string {
  let out = ''
  let copied = 0
  // Each `>` is looked at once, however many `<p` before it lead to it.
  let gt = -1
  let closedAt = -1
  let at = html.indexOf('<p')
  while (at >= 0) {
    if (gt < at + 2) {
      gt = html.indexOf('>', at + 2)
      if (gt < 0) break
      BLANK_THEN_CLOSE.lastIndex = gt + 1
      closedAt = BLANK_THEN_CLOSE.test(html) ? BLANK_THEN_CLOSE.lastIndex : -1
    }
    if (closedAt < 0) {
      at = html.indexOf('<p', at + 2)
      continue
    }
    out += `${html.slice(copied, at)}<p${html.slice(at + 2, gt)}></p>`
    copied = closedAt
    at = html.indexOf('<p', copied)
  }
  return copied ? out + html.slice(copied) : html
}

/**
 * The capture of `/\{\{\s*(.*?)\s*\}\}/.exec(text)` (undefined when nothing matches): the first
 * `{{ … }}` output's expression, trimmed. The expression's three overlapping parts make it
 * cubic where no `}}` comes (`{{` and 4,000 spaces: two minutes).
 */
export function firstOutputExpression(text: string): string | undefined {
  // Positions up to here are known not to end a match.
  let failedTo = -1
  for (let at = text.indexOf('{{'); at >= 0; at = text.indexOf('{{', at + 1)) {
    const from = skipSpaces(text, at + 2)
    if (from <= failedTo) continue
    // `(.*?)` grows from `from` up to the line end; at each end the rest is `\s*\}\}`.
    for (let end = from; ;) {
      const after = skipSpaces(text, end)
      if (text.startsWith('}}', after)) return text.slice(from, end)
      if (after > end) {
        // Every end inside this run of spaces lands on the same `after`; `(.*?)` stops at a
        // line end in it, and a later start whose expression begins by then stops there too.
        const lineEnd = text.slice(end, after).search(/[\n\r\u2028\u2029]/)
        if (lineEnd >= 0) {
          failedTo = end + lineEnd
          break
        }
        end = after
        continue
      }
      if (end >= text.length) {
        failedTo = end
        break
      }
      end++
    }
  }
  return undefined
}
