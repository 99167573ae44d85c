import type { Context } from 'hono'
import { getQueryParams } from 'hono/utils/url'
import type { AppEnv } from '../app-env.js'
import type { Note } from '../http/notes.js'
import { isSecretParam, redactHeader, redactKey } from '../http/redact.js'
import type { MockState } from '../state.js'
import type { Generation } from '../generations/generation.js'
import { closestRoutes, routeExists } from './closest-routes.js'
import type { EntrySource, JournalEntry } from './journal.js'
import { idsInJson, RESPONSE_HEAD_BYTES } from './response-ids.js'
import { textBytes } from '../cache.js'
import { jsonHeapBytes } from '../memory/estimate.js'

const MAX_JOURNAL_BODY = 2048
const MAX_HEADER_VALUE = 512
const MAX_HEADERS = 50

function recordHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  let count = 0
  headers.forEach((value, name) => {
    if (count++ >= MAX_HEADERS) return
    const shown = redactHeader(name, value)
    out[name] = shown.length > MAX_HEADER_VALUE ? `${shown.slice(0, MAX_HEADER_VALUE)}…` : shown
  })
  return out
}

/** Joins Node's raw pairs: no header name or value holds a NUL (Node's parser refuses it). */
const PAIR_SEPARATOR = '\u0000'

/** The Headers @hono/node-server would build from Node's raw pairs (HTTP/2 pseudo-headers left out). */
function headersFromRaw(joined: string): Headers {
  const raw = joined.split(PAIR_SEPARATOR)
  const headers = new Headers()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string
    if (!name.startsWith(':')) headers.append(name, raw[i + 1] as string)
  }
  return headers
}

/**
 * The request's headers as the journal will show them, or Node's raw pairs, joined into one
 * string, to build them from on read: building a Headers object costs more than the rest of the
 * entry, and one string outlives the young generation more cheaply than the dozen Node made.
 * Node's parser bounds the raw pairs (16 kB), so the entry stays bounded; any other request is
 * copied now.
 */
function headerSource(c: Context<AppEnv>): string | Record<string, string> {
  const raw = c.env?.incoming?.rawHeaders
  return raw ? raw.join(PAIR_SEPARATOR) : recordHeaders(c.req.raw.headers)
}

function recordQuery(url: string, path: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, all] of Object.entries(getQueryParams(url) as Record<string, string[]>)) {
    const values = isSecretParam(name, path) ? all.map(redactKey) : all
    out[name] = values.length > 1 ? values.slice(0, 20) : (values[0] ?? '')
  }
  return out
}

/** The first bytes of the body, copied: a slice would keep the whole (up to 20 MB) body alive. */
function bodyHead(raw: string): string {
  return raw.length > MAX_JOURNAL_BODY ? raw.slice(0, MAX_JOURNAL_BODY).split('').join('') : raw
}

/**
 * The head of a 2xx JSON answer, to find ids in on read. An answer up to RESPONSE_HEAD_BYTES
 * characters is kept by reference (no copy: a cached list page is shared anyway); the head of a
 * longer one goes into the journal's byte regions (journal.ts), so that no copy of it, nor the
 * whole answer, stays alive on the heap.
 */
function responseHead(text: string | undefined): { kept?: string; long?: string } {
  if (text === undefined) return {}
  return text.length <= RESPONSE_HEAD_BYTES ? { kept: text } : { long: text }
}

function apiKeyOf(c: Context): string | undefined {
  const header = c.req.header('authorization')
  return header?.startsWith('ApiKey ') ? header.slice(7) : undefined
}

function responseIdsOf(head: string | undefined): { responseIds?: Record<string, string> } {
  if (head === undefined) return {}
  const ids = idsInJson(head)
  return Object.keys(ids).length ? { responseIds: ids } : {}
}

// These faults never send a response; malformed and slow bodies do, with the route's status.
const CONNECTION_FAULTS = new Set(['reset', 'empty', 'hang'])
const statusOf = (c: Context<AppEnv>, status: number) => {
  const fault = c.get('fault')
  return fault !== undefined && CONNECTION_FAULTS.has(fault) ? 0 : status
}

function logRequest(state: MockState, c: Context<AppEnv>, status: number, started: number) {
  const key = apiKeyOf(c)
  state.logger.log('debug', 'request', {
    method: c.req.method,
    path: c.req.path,
    status: statusOf(c, status),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
    ...(c.get('rule') ? { rule: c.get('rule') } : {}),
  })
}

/**
 * One line a note: the client's data was dropped or changed, and the line says how to fix it; at
 * info level the first time its environment gives the advice, at debug level after (http/notes.ts).
 */
function logNotes(state: MockState, c: Context<AppEnv>, notes: readonly Note[]) {
  const key = apiKeyOf(c)
  for (const { text, repeated } of notes)
    state.logger.log(repeated ? 'debug' : 'info', text, {
      method: c.req.method,
      path: c.req.path,
      ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
    })
}

/** The texts a request leaves in the journal (journal.ts keeps them as bytes), in this order. */
const URL_TEXT = 0
const PATH_TEXT = 1
const HEADERS_TEXT = 2
const KEY_TEXT = 3
const BODY_TEXT = 4

/**
 * What a journal entry is built from besides those texts, taken when the answer is known (the
 * entry itself is built on first read): one per slot of the journal, filled again for each
 * request the slot holds.
 */
class RequestFacts {
  at = 0
  method = ''
  /** Headers copied from a request that had no raw pairs (app.request). */
  copiedHeaders: Record<string, string> | undefined = undefined
  truncated = false
  environmentId: string | undefined = undefined
  status = 0
  durationMs = 0
  rule: string | undefined = undefined
  fault: string | undefined = undefined
  outcome: JournalEntry['outcome'] = undefined
  delayMs: number | undefined = undefined
  matched = false
  generation: Generation | undefined = undefined
  head: string | undefined = undefined
  notes: string[] | undefined = undefined

  toEntry(
    longHead?: string,
    texts: readonly (string | undefined)[] = []
  ): Omit<JournalEntry, 'id'> {
    const { environmentId, rule, fault, outcome, delayMs, matched, method } = this
    const path = texts[PATH_TEXT] as string
    const key = texts[KEY_TEXT]
    const body = texts[BODY_TEXT]
    const raw = texts[HEADERS_TEXT]
    return {
      at: new Date(this.at).toISOString(),
      method,
      path,
      query: recordQuery(texts[URL_TEXT] as string, path),
      headers: raw !== undefined ? recordHeaders(headersFromRaw(raw)) : (this.copiedHeaders ?? {}),
      ...(body !== undefined ? { body } : {}),
      ...(this.truncated ? { bodyTruncated: true } : {}),
      ...(key !== undefined ? { apiKey: redactKey(key) } : {}),
      ...(environmentId !== undefined ? { environmentId } : {}),
      status: this.status,
      durationMs: this.durationMs,
      ...(rule ? { rule } : {}),
      ...(fault ? { fault } : {}),
      ...(outcome ? { outcome } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      matched,
      ...(matched
        ? {}
        : { closestRoutes: closestRoutes(method, path, this.generation as Generation) }),
      ...responseIdsOf(this.head ?? longHead),
      ...(this.notes ? { notes: this.notes } : {}),
    }
  }
}

/**
 * Records one request once its answer is known: what the entry needs is taken now, turning it
 * into the entry waits for someone to read it. Admin requests are not recorded, so reading the
 * journal does not change it. Returns the entry's id, when one was recorded.
 */
export function recordRequest(
  state: MockState,
  c: Context<AppEnv>,
  responseStatus: number,
  started: number
): number | undefined {
  if (state.logger.enabled('debug')) logRequest(state, c, responseStatus, started)
  const notes = c.get('notes')
  if (notes && state.logger.enabled('info')) logNotes(state, c, notes)
  if (state.journal.capacity === 0) return undefined
  const { method, path, url } = c.req
  if (path.startsWith('/__admin')) return undefined
  const raw = c.get('rawBody')
  const key = apiKeyOf(c)
  const rule = c.get('rule')
  const generation = c.get('generation')
  const matched =
    c.get('matched') === true || (rule !== undefined && routeExists(method, path, generation))
  const head = responseStatus < 300 ? responseHead(c.get('responseText')) : {}
  const headers = headerSource(c)
  // The slot's builder from before is filled again when no one built its entry.
  const facts = (previous: EntrySource | undefined) => {
    const f = previous instanceof RequestFacts ? previous : new RequestFacts()
    f.at = Date.now()
    f.method = method
    f.copiedHeaders = typeof headers === 'string' ? undefined : headers
    f.truncated = raw !== undefined && raw.length > MAX_JOURNAL_BODY
    f.environmentId = c.get('env')?._environmentId
    f.status = statusOf(c, responseStatus)
    f.durationMs = Math.round((performance.now() - started) * 100) / 100
    f.rule = rule
    f.fault = c.get('fault')
    f.outcome = c.get('outcome')
    f.delayMs = c.get('delayMs')
    f.matched = matched
    f.generation = generation
    f.head = head.kept
    f.notes = notes?.map((note) => note.text)
    return f
  }
  const texts: (string | undefined)[] = []
  texts[URL_TEXT] = url
  texts[PATH_TEXT] = path
  texts[HEADERS_TEXT] = typeof headers === 'string' ? headers : undefined
  texts[KEY_TEXT] = key
  texts[BODY_TEXT] = raw === undefined ? undefined : bodyHead(raw)
  // What the builder holds: the answer's head (shared when a cached page), copied headers.
  let heldBytes = head.kept === undefined ? 0 : 24 + textBytes(head.kept)
  if (typeof headers !== 'string') heldBytes += jsonHeapBytes(headers)
  return state.journal.recordReusing(facts, {
    longAnswer: head.long,
    texts,
    keyText: KEY_TEXT,
    heldBytes,
  })
}
