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

/** Connection faults send no answer: a replay would only see its own request fail. */
const CONNECTION_FAULTS = new Set(['reset', 'empty', 'hang'])

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
  if (entry.outcome)
    notes.push(
      `chaos rule ${entry.rule ?? '?'} answered this; the addRule step before it gives the same answer, on the mock only`
    )
  else if (entry.rule && entry.status !== 0)
    notes.push(
      `chaos rule ${entry.rule} only delayed or let through this call: the replay does not`
    )
  return notes
}

type Replayable = JournalEntry & { method: ReplayRequest['method'] }

/** Replaces each known id in a string by its placeholder. */
function withPlaceholders(text: string, names: ReadonlyMap<string, string>): string {
  if (names.size === 0) return text
  return text.replace(/[0-9a-f]{24}/g, (id) => (names.has(id) ? `{{${names.get(id)}}}` : id))
}

/** Every string of a JSON value with its ids replaced. */
function deepPlaceholders(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return withPlaceholders(value, names)
  if (Array.isArray(value)) return value.map((item) => deepPlaceholders(item, names))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, deepPlaceholders(item, names)])
    )
  return value
}

/** The ids a request sends: in its path, query and body. */
function idsSent(entry: Replayable): Set<string> {
  const text = `${pathWithQuery(entry)} ${entry.bodyTruncated ? '' : (entry.body ?? '')}`
  return new Set(text.match(/[0-9a-f]{24}/g) ?? [])
}

const SINGULAR: Record<string, string> = {
  'notification-groups': 'group',
  'notification-templates': 'workflow',
  workflows: 'workflow',
  topics: 'topic',
  messages: 'message',
  subscribers: 'subscriber',
  steps: 'step',
}

const camel = (text: string) => text.replace(/[-_]+(.)/g, (_, ch: string) => ch.toUpperCase())

/**
 * A variable name for an id read at `jsonPath` of the answer to `requestPath`: `workflowId` for
 * `$.data._id` of POST /v1/workflows, `stepId` for `$.data.steps[0]._id`, `templateId` for
 * `$.data._templateId`.
 */
function variableName(requestPath: string, jsonPath: string): string {
  const keys = [...jsonPath.matchAll(/\.([^.[\]]+)|\['([^']*)'\]|\["([^"]*)"\]/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? ''
  )
  const last = keys.at(-1) ?? ''
  if (last !== '_id' && last !== 'id') {
    const own = camel(last.replace(/^_+/, ''))
    return /^[A-Za-z_][\w-]*$/.test(own) ? own : 'id'
  }
  const parent = keys.at(-2)
  const resource = requestPath.split('/').filter(Boolean)[1] ?? 'record'
  const noun =
    parent === undefined || parent === 'data'
      ? (SINGULAR[resource] ?? camel(resource.replace(/s$/, '')))
      : (SINGULAR[parent] ?? camel(parent.replace(/s$/, '')))
  const name = `${camel(noun)}Id`
  return /^[A-Za-z_][\w-]*$/.test(name) ? name : 'id'
}

/**
 * Which answer's id each later request reuses: for every id a request sends that an earlier 2xx
 * answer carried, the first such answer and where in it. Ids no answer carried (the scenario's
 * named records, the same for every key) stay as they are.
 */
function planCaptures(entries: Replayable[]) {
  const firstSeen = new Map<string, { index: number; jsonPath: string }>()
  const used = new Set<string>()
  entries.forEach((entry, index) => {
    for (const id of idsSent(entry)) if (firstSeen.has(id)) used.add(id)
    for (const [jsonPath, id] of Object.entries(entry.responseIds ?? {}))
      if (!firstSeen.has(id)) firstSeen.set(id, { index, jsonPath })
  })
  const names = new Map<string, string>()
  const saves = new Map<number, Record<string, string>>()
  const taken = new Set<string>(['apiKey'])
  for (const [id, { index, jsonPath }] of firstSeen) {
    if (!used.has(id)) continue
    const base = variableName(entries[index]?.path ?? '', jsonPath)
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`
    taken.add(name)
    names.set(id, name)
    saves.set(index, { ...saves.get(index), [name]: jsonPath })
  }
  return { names, saves }
}

/** The placeholder of the replay's own key: a script recorded on one key replays on any. */
const KEY_PLACEHOLDER = '{{apiKey}}'

/** The one-shot rule that gives a faulted call the answer it got, on the replay's key only. */
function ruleStep(entry: Replayable, path: string): ReplayStep {
  return {
    name: `chaos rule ${entry.rule ?? ''} for the next call`.replace('  ', ' '),
    admin: {
      addRule: {
        description: `replays what ${entry.rule ?? 'a chaos rule'} answered at ${entry.at}`,
        match: { method: entry.method, path: path.split('?')[0] ?? path, apiKey: KEY_PLACEHOLDER },
        fault: entry.outcome,
        times: 1,
      },
    },
  }
}

function toSteps(
  entry: Replayable,
  names: ReadonlyMap<string, string>,
  save: Record<string, string> | undefined
): ReplayStep[] {
  const path = withPlaceholders(pathWithQuery(entry), names)
  const request: ReplayRequest = { method: entry.method, path }
  const headers = headersOf(entry)
  if (headers) request.headers = headers
  if (entry.body && !entry.bodyTruncated) request.body = deepPlaceholders(bodyOf(entry.body), names)
  const notes = notesOf(entry)
  const step: ReplayStep = {
    ...(notes.length ? { description: notes.join('; ') } : {}),
    ...(entry.outcome ? { mockOnly: true } : {}),
    request,
    ...(entry.status !== 0 ? { expect: { status: entry.status } } : {}),
    ...(save ? { save } : {}),
  }
  return entry.outcome ? [ruleStep(entry, path), step] : [step]
}

/**
 * Turns journal entries (newest first, as `state.journal.list()` gives them) into a replay
 * script in the order the requests came, that replays as is, on any key and as often as wanted:
 * - it starts with a reset of the replay's key (its data, rules and journal, on the mock);
 * - an id that an answer carried and a later request sends is saved from that answer
 *   (`save: { workflowId: $.data._id }`) and sent as `{{workflowId}}`;
 * - a call a chaos rule answered is preceded by a one-shot rule that gives the same answer
 *   (`mockOnly`: skipped with --skip-admin); a call a connection fault cut off (reset, empty,
 *   hang) is left out, as the description says.
 * Admin requests are left out, and the expected status is the recorded one. The API key is
 * redacted in the journal: replay with `--api-key`.
 *
 * @example
 * const script = journalToScript(mock.state.journal.list({ apiKey: 'checkout-test' }), { name: 'checkout' })
 * await writeFile('checkout.yaml', scriptToYaml(script))
 */
export function journalToScript(
  entries: JournalEntry[],
  options: { name?: string } = {}
): ReplayScript {
  const chronological = [...entries].sort((a, b) => a.id - b.id)
  const kept = chronological.filter((e) => !e.path.startsWith(ADMIN_PREFIX))
  const methodsKept = kept.filter((e): e is Replayable => isMethod(e.method))
  const cutOff = methodsKept.filter((e) => e.status === 0 && CONNECTION_FAULTS.has(e.fault ?? ''))
  const replayable = methodsKept.filter((e) => !cutOff.includes(e))
  const { names, saves } = planCaptures(replayable)
  const dropped = kept.length - methodsKept.length
  const from = replayable[0]?.at
  const to = replayable.at(-1)?.at
  const span = from && to ? `, ${from} to ${to}` : ''
  // Redacted keys (`re…er`) tell keys apart well enough to warn; calls without a key do not count.
  const environments = new Set(replayable.flatMap((e) => (e.apiKey ? [e.apiKey] : [])))
  const reset: ReplayStep = {
    name: 'reset the key',
    description:
      "the replay's key back to the scenario: its data, its chaos rules and its journal entries",
    admin: { reset: { apiKey: KEY_PLACEHOLDER } },
  }
  return {
    name: options.name ?? 'recorded-session',
    description: [
      `Recorded by novu-mock from ${replayable.length} requests${span}.`,
      `API keys are not recorded: replay with --api-key (the steps use it as {{apiKey}}).`,
      environments.size > 1
        ? `The requests came from ${environments.size} keys: export one key's with ?apiKey=KEY to replay it alone.`
        : '',
      dropped ? `${dropped} requests with other methods were left out.` : '',
      cutOff.length
        ? `Left out: ${cutOff.map((e) => `${e.method} ${e.path} at ${e.at} (a chaos rule's ${e.fault} fault: no answer to expect)`).join('; ')}.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    steps: [reset, ...replayable.flatMap((entry, i) => toSteps(entry, names, saves.get(i)))],
  }
}

/** A script as YAML, with a comment saying how to run it. */
export function scriptToYaml(script: ReplayScript): string {
  const doc = new Document(script)
  doc.commentBefore = ' Run it: novu-mock replay FILE --target http://127.0.0.1:4000 --api-key KEY'
  return doc.toString({ lineWidth: 0 })
}
