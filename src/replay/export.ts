import { Document } from 'yaml'
import { isSecretHeader, isSecretParam } from '../http/redact.js'
import type { JournalEntry } from '../journal/journal.js'
import { ADMIN_PREFIX } from './admin.js'
import { HTTP_METHODS, type ReplayRequest, type ReplayScript, type ReplayStep } from './schema.js'

/** Headers the client or the connection sets on its own; replaying them would only add noise. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'authorization',
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'sec-fetch-mode',
  'te',
  'transfer-encoding',
  'upgrade',
  'user-agent',
])

const isMethod = (method: string): method is ReplayRequest['method'] =>
  (HTTP_METHODS as readonly string[]).includes(method)

/** Hono hands the journal a decoded path: encode again what a URL cannot carry as it is. */
const encodePath = (path: string) =>
  path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c))

function pathWithQuery(entry: JournalEntry): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(entry.query))
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, item)
  const search = query.toString()
  return encodePath(entry.path) + (search ? `?${search}` : '')
}

/** An object or array body as data; anything else kept as the raw text, which replays byte for byte. */
function bodyOf(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed !== null && typeof parsed === 'object' ? parsed : raw
  } catch {
    return raw
  }
}

function headersOf(entry: JournalEntry): Record<string, string | null> | undefined {
  const kept: Record<string, string | null> = {}
  for (const [name, value] of Object.entries(entry.headers)) {
    // The journal keeps secrets redacted: sent back as they are, they would only mislead.
    if (TRANSPORT_HEADERS.has(name) || isSecretHeader(name)) continue
    // The runner sends JSON bodies with this content type already.
    if (name === 'content-type' && value.startsWith('application/json')) continue
    kept[name] = value
  }
  // Without this the replay would add --api-key to a request that had no Authorization.
  if (entry.headers.authorization === undefined) kept.Authorization = null
  return Object.keys(kept).length ? kept : undefined
}

function notesOf(entry: JournalEntry): string[] {
  const notes: string[] = []
  const secrets = [
    ...Object.keys(entry.query).filter((name) => isSecretParam(name, entry.path)),
    ...Object.keys(entry.headers).filter(
      (name) => name !== 'authorization' && isSecretHeader(name)
    ),
  ]
  if (secrets.length)
    notes.push(`the journal redacts secrets (${secrets.join(', ')}): put them back to replay this`)
  if (entry.bodyTruncated)
    notes.push('the journal kept only the start of the body, so it is left out: paste it in')
  if (entry.status === 0)
    notes.push(
      `the mock answered with a network fault${entry.fault ? ` (${entry.fault})` : ''}: nothing to expect`
    )
  else if (entry.rule)
    notes.push(`chaos rule ${entry.rule} answered this: add it with an admin addRule step first`)
  return notes
}

function toStep(entry: JournalEntry & { method: ReplayRequest['method'] }): ReplayStep {
  const request: ReplayRequest = { method: entry.method, path: pathWithQuery(entry) }
  const headers = headersOf(entry)
  if (headers) request.headers = headers
  if (entry.body && !entry.bodyTruncated) request.body = bodyOf(entry.body)
  const notes = notesOf(entry)
  return {
    ...(notes.length ? { description: notes.join('; ') } : {}),
    request,
    ...(entry.status !== 0 ? { expect: { status: entry.status } } : {}),
  }
}

/**
 * Turns journal entries (newest first, as `state.journal.list()` gives them) into a replay
 * script in the order the requests came. Admin requests are left out, and the expected status is
 * the recorded one. The API key is redacted in the journal: replay with `--api-key`.
 *
 * @example
 * const script = journalToScript(mock.state.journal.list(), { name: 'checkout' })
 * await writeFile('checkout.yaml', scriptToYaml(script))
 */
export function journalToScript(
  entries: JournalEntry[],
  options: { name?: string } = {}
): ReplayScript {
  const chronological = [...entries].sort((a, b) => a.id - b.id)
  const kept = chronological.filter((e) => !e.path.startsWith(ADMIN_PREFIX))
  const replayable = kept.filter((e): e is JournalEntry & { method: ReplayRequest['method'] } =>
    isMethod(e.method)
  )
  const dropped = kept.length - replayable.length
  const from = replayable[0]?.at
  const to = replayable.at(-1)?.at
  const span = from && to ? `, ${from} to ${to}` : ''
  return {
    name: options.name ?? 'recorded-session',
    description:
      `Recorded by novu-mock from ${replayable.length} requests${span}. ` +
      `API keys are not recorded: replay with --api-key.` +
      (dropped ? ` ${dropped} requests with other methods were left out.` : ''),
    steps: replayable.map(toStep),
  }
}

/** A script as YAML, with a comment saying how to run it. */
export function scriptToYaml(script: ReplayScript): string {
  const doc = new Document(script)
  doc.commentBefore = ' Run it: novu-mock replay FILE --target http://127.0.0.1:4000 --api-key KEY'
  return doc.toString({ lineWidth: 0 })
}
