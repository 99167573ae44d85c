/**
 * A parser's complaint, without the file's text. V8 quotes up to ten characters around a bad
 * JSON token and the YAML parser prints the whole line under a caret; errors go back to whoever
 * asked to load the file, so they name the line and column instead (which is what finding the
 * mistake takes) and quote nothing but the offending character.
 */

const MAX_REASON = 200

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return `line ${line}, column ${column}`
}

const clip = (reason: string) =>
  reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason

// "Unexpected token 'r', "root:x:0:0"... is not valid JSON", with or without leading dots.
const QUOTING =
  /^(Unexpected token '[\s\S]{1,2}'), (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/

export function describeJsonError(text: string, error: Error): string {
  const message = error.message
  const at = /at position (\d+)/.exec(message)
  if (at) {
    const reason = message
      .slice(0, at.index)
      .replace(/ in JSON $/, '')
      .trim()
    return `${lineColumn(text, Number(at[1]))}: ${clip(reason)} in JSON`
  }
  const quoted = QUOTING.exec(message)
  if (quoted) {
    const [, reason = 'Unexpected token', , context = ''] = quoted
    const token = /'([\s\S]{1,2})'$/.exec(reason)?.[1] ?? ''
    const near = Math.max(0, text.indexOf(context))
    return `${lineColumn(text, Math.max(near, text.indexOf(token, near)))}: ${reason} in JSON`
  }
  // "Unexpected end of JSON input" and the like: no position, and nothing quoted either.
  return clip(message.split('"')[0] ?? message)
}

interface YamlErrorShape {
  message: string
  linePos?: { line: number; col: number }[]
}

export function describeYamlError(error: Error): string {
  const { message, linePos } = error as Error & YamlErrorShape
  const reason = (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
  const where = linePos?.[0]
  return where ? `line ${where.line}, column ${where.col}: ${clip(reason)}` : clip(reason)
}
