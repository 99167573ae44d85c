/**
 * The capture's progress on stderr: on a terminal, one line per kind of record redrawn in place
 * with a bar once a list is long; elsewhere (CI logs), one line per kind when it is done.
 */
export interface ProgressStream {
  write(text: string): unknown
  isTTY?: boolean
}

const BAR = 24
/** A list this long gets a bar (a short one is done before a bar would show anything). */
const LONG_LIST = 50

function bar(count: number, total: number): string {
  const filled = Math.round((Math.min(count, total) / Math.max(total, 1)) * BAR)
  return ` [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}]`
}

export function createProgress(stream: ProgressStream) {
  const tty = stream.isTTY === true
  let current: string | undefined
  let line = ''
  const counts = new Map<string, number>()

  function finish() {
    if (current === undefined) return
    stream.write(tty ? '\n' : `${line}\n`)
    current = undefined
  }

  return {
    update(kind: string, count: number, total?: number) {
      if (kind !== current) finish()
      current = kind
      counts.set(kind, count)
      const long = total !== undefined && total >= LONG_LIST
      line = `  ${kind}: ${count}${total !== undefined ? `/${total}` : ''}${long ? bar(count, total) : ''}`
      if (tty) stream.write(`\r${line}\x1b[K`)
    },
    /** Says a kind is read whole, with its count (zero when the list was empty). */
    done(kind: string, count: number) {
      if (current !== kind) this.update(kind, count, count)
      line = `  ${kind}: ${count}`
      if (tty) stream.write(`\r${line}\x1b[K`)
      finish()
    },
    note(text: string) {
      finish()
      stream.write(`${text}\n`)
    },
    counts,
  }
}

export type Progress = ReturnType<typeof createProgress>
