import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'

/** A request's notes are bounded whatever it sent: this many, each this long at most. */
const MAX_NOTES = 10
const MAX_NOTE = 1024
const MAX_NAMES = 5
const MAX_NAME = 40

/**
 * Tells the client, in the request's journal entry (`notes`) and the log (info), that the mock,
 * as upstream does, dropped or changed something it sent: the words name the field, what became
 * of it and the fix. The journal (journal/record.ts) logs and records them once the answer is known.
 */
export function noteOnRequest(c: Context<AppEnv>, note: string): void {
  const notes = c.get('notes')
  const text = note.length > MAX_NOTE ? `${note.slice(0, MAX_NOTE)}…` : note
  if (!notes) c.set('notes', [text])
  else if (notes.length < MAX_NOTES) notes.push(text)
}

/** `"a", "b" and 3 more`: names as a note shows them, each cut to a readable length. */
export function quotedNames(names: readonly string[]): string {
  const shown = names
    .slice(0, MAX_NAMES)
    .map((name) => JSON.stringify(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name))
  const more = names.length - shown.length
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ')
}
