import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'

/** A request's notes are bounded whatever it sent: this many, each this long at most. */
const MAX_NOTES = 10
const MAX_NOTE = 1024
const MAX_NAMES = 5
const MAX_NAME = 40

export interface Note {
  text: string
  /** The environment gave this advice before: the log has it at debug level, not info. */
  repeated: boolean
}

/**
 * Tells the client, in the request's journal entry (`notes`) and the log, that the mock, as
 * upstream does, dropped or changed something it sent: the words name the field, what became of
 * it and the fix. The journal (journal/record.ts) logs and records them once the answer is known.
 * A load test that sends the same body a thousand times needs the advice once: the log has it at
 * info level the first time an environment gives it (`advice` names it when the words differ
 * from one request to the next), at debug level after; the journal keeps every note.
 */
export function noteOnRequest(c: Context<AppEnv>, note: string, advice: string = note): void {
  let notes = c.get('notes')
  if (notes && notes.length >= MAX_NOTES) return
  const text = note.length > MAX_NOTE ? `${note.slice(0, MAX_NOTE)}…` : note
  const repeated = c.get('env')?.firstAdvice(advice) === false
  if (!notes) c.set('notes', (notes = []))
  notes.push({ text, repeated })
}

/** `"a", "b" and 3 more`: names as a note shows them, each cut to a readable length. */
export function quotedNames(names: readonly string[]): string {
  const shown = names
    .slice(0, MAX_NAMES)
    .map((name) => JSON.stringify(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name))
  const more = names.length - shown.length
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ')
}
