import fc from 'fast-check'

/**
 * Generators for the property tests: random and adversarial requests to every route.
 * Bodies are built as JSON text, not as objects, so that they can hold what JSON.stringify
 * cannot write (`-0`, `1e400`, duplicate and `__proto__` keys, 2,000 levels of nesting) without
 * the test process ever assigning a `__proto__` key itself.
 */

// Ids of the default scenario's records (fixtures/default.json).
export const GENERAL_GROUP = '66fbb0a0c1f2e3d4a5b60001'
const BILLING_GROUP = '66fbb0a0c1f2e3d4a5b60002'
export const WELCOME_WORKFLOW = '66fbb0a0c1f2e3d4a5b61001'
export const ORDER_WORKFLOW = '66fbb0a0c1f2e3d4a5b61002'
const TRANSACTIONS = ['tx-order-1001', 'tx-welcome-2210']
export const PRODUCTION_KEY = 'production-key'
export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push']

export interface Probe {
  method: string
  /** Path and query, already percent-encoded (possibly badly, on purpose). */
  path: string
  headers: Record<string, string>
  body?: string
}

/** A JSON text kept as written. */
class Raw {
  constructor(readonly text: string) {}
}

/** An object written from its entries, so that keys may repeat or be `__proto__`. */
class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text
  if (value instanceof Entries)
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`
  if (value !== null && typeof value === 'object') return toJson(new Entries(Object.entries(value)))
  return JSON.stringify(value) ?? 'null'
}

// ---------------------------------------------------------------------------------------------
// Strings

const LONG = 100_000
const ODD_TEXTS = [
  '',
  ' ',
  '\ud800',
  'a\udfffb',
  '\u202eevil\u202c',
  'שלום עולם',
  '\u0000',
  'a\u0000b',
  'e\u0301\u0301\u0301',
  '😀',
  '👩‍👩‍👧‍👦',
  '\ufeff',
  '\u2028\u2029',
  '%zz',
  '%00',
  '%2F',
  '../..',
  '{{',
  '{{#each a}}',
  '{{a}}{{/if}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '1e308',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '9007199254740993',
  'true',
  'yes',
  'maybe',
  'abc',
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  '\\',
  '"',
  'Tom & Jerry $5 50%',
  '66fbb0a0c1f2e3d4a5b6000',
  '66FBB0A0C1F2E3D4A5B60001',
]

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('x', '😀', 'é', '\ud800').map((c) => c.repeat(LONG)) }
)

/** A header value as a client could send it: UTF-8 bytes read as Latin-1, no CR, LF or NUL. */
const toHeaderValue = (text: string) =>
  Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[\r\n\0]/g, '')

// ---------------------------------------------------------------------------------------------
// JSON values

const NUMBER_TEXTS = [
  '0',
  '-0',
  '-0.0',
  '1',
  '-1',
  '1.5',
  '5',
  '10',
  '11',
  '1e308',
  '-1e308',
  '1e400',
  '5e-324',
  '9007199254740993',
  '1E2',
]
const STRING_VALUES = ['', '  ', 'true', 'false', 'yes', 'no', '1', '0', 'maybe', 'abc', '1e308']

const scalarJson: fc.Arbitrary<Raw> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS).map((t) => new Raw(t)),
  fc.constantFrom('true', 'false', 'null').map((t) => new Raw(t)),
  fc.constantFrom(...STRING_VALUES).map((s) => new Raw(JSON.stringify(s))),
  oddString.map((s) => new Raw(JSON.stringify(s)))
)

const SPECIAL_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', '_id', '']
const keyArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_KEYS) },
  { weight: 1, arbitrary: oddString }
)

const { tree } = fc.letrec<{ tree: unknown; array: unknown; object: unknown }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, scalarJson, tie('array'), tie('object')),
  array: fc.array(tie('tree'), { maxLength: 3 }),
  object: fc.array(fc.tuple(keyArb, tie('tree')), { maxLength: 3 }).map((e) => new Entries(e)),
}))

const DEPTH = 2000
/** Prototype-pollution payloads: each is harmless unless someone merges it into a prototype. */
const POISON = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
  '{"__proto__":[]}',
]

const adversarialJson: fc.Arbitrary<unknown> = fc
  .oneof(
    { weight: 4, arbitrary: scalarJson },
    { weight: 3, arbitrary: tree },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...POISON,
        '{"toString":1,"valueOf":1}',
        '{"_id":"abc"}',
        '[]',
        '{}',
        '[1]',
        '[null]',
        '["x"]',
        '[{}]',
        '{"name":{"toString":1}}'
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '['.repeat(DEPTH) + ']'.repeat(DEPTH),
        '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH),
        '{"__proto__":'.repeat(DEPTH) + '{"polluted":"yes"}' + '}'.repeat(DEPTH)
      ),
    }
  )
  .map((v) => (typeof v === 'string' ? new Raw(v) : v))

// ---------------------------------------------------------------------------------------------
// Mutations of a valid body

type Path = (string | number)[]

function pathsOf(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...at, i])))
  else if (isPlain(value))
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...at, k]))
  return out
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Raw) &&
  !(v instanceof Entries)

function updateAt(value: unknown, path: Path, change: (old: unknown) => unknown): unknown {
  if (path.length === 0) return change(value)
  const [head, ...rest] = path
  if (Array.isArray(value)) {
    const copy = [...value]
    copy[head as number] = updateAt(copy[head as number], rest, change)
    return copy
  }
  if (isPlain(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === head ? updateAt(v, rest, change) : v])
    )
  return value
}

const DROPPED = Symbol('dropped')
function dropMarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== DROPPED).map(dropMarked)
  if (isPlain(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== DROPPED)
        .map(([k, v]) => [k, dropMarked(v)])
    )
  return value
}

type Mutation = [number, 'set' | 'remove' | 'addKey' | 'wrap', unknown, string]

function mutate(base: unknown, [pick, kind, replacement, key]: Mutation): unknown {
  const paths = pathsOf(base)
  const path = paths[pick % paths.length] ?? []
  switch (kind) {
    case 'set':
      return updateAt(base, path, () => replacement)
    case 'remove':
      return path.length ? dropMarked(updateAt(base, path, () => DROPPED)) : base
    case 'wrap':
      return updateAt(base, path, (old) => [old])
    case 'addKey':
      return updateAt(base, path, (old) =>
        isPlain(old) ? new Entries([...Object.entries(old), [key, replacement]]) : old
      )
  }
}

const mutationArb: fc.Arbitrary<Mutation> = fc.tuple(
  fc.nat(),
  fc.constantFrom('set', 'set', 'remove', 'addKey', 'wrap'),
  adversarialJson,
  keyArb
)

/** A valid body, or the same body with one to three random changes at random depths. */
export const mutated = (base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc
    .tuple(base, fc.array(mutationArb, { maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce(mutate, value))

/** Every object of the body carries the pollution payloads, at every depth. */
function poisoned(value: unknown): unknown {
  const payload: [string, unknown][] = [
    ['__proto__', new Raw('{"polluted":"yes"}')],
    ['constructor', new Raw('{"prototype":{"polluted":"yes"}}')],
  ]
  if (Array.isArray(value)) return value.map(poisoned)
  if (isPlain(value))
    return new Entries([
      ...Object.entries(value).map(([k, v]): [string, unknown] => [k, poisoned(v)]),
      ...payload,
    ])
  return value
}

const MALFORMED = [
  '{',
  '{"name":}',
  '{name:"x"}',
  "{'name':'x'}",
  '{"name":"x",}',
  '[1,]',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-}',
  '"text"',
  '123',
  'null',
  'true',
  '  ',
  '\ufeff{}',
  '{"a":"\u0000"}',
  '{"a":1}{"b":2}',
  '\u0000',
]

/** The text sent as the body: the value, poisoned, wrapped in an array, or broken. */
export const bodyText = (value: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: value.map(toJson) },
    { weight: 2, arbitrary: value.map((v) => toJson(poisoned(v))) },
    { weight: 1, arbitrary: value.map((v) => `[${toJson(v)}]`) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value.map(toJson), fc.nat())
        .map(([text, cut]) => text.slice(0, cut % Math.max(1, text.length))),
    }
  )

// ---------------------------------------------------------------------------------------------
// Valid bodies

const hex24 = fc
  .array(fc.constantFrom(...'0123456789abcdef'), { minLength: 24, maxLength: 24 })
  .map((c) => c.join(''))

const IN_APP = {
  name: 'In-App',
  template: {
    type: 'in_app',
    content: 'Hi {{firstName}}',
    cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
  },
}
const EMAIL = {
  name: 'Email',
  template: {
    type: 'email',
    subject: 'Order {{orderId}}',
    content: [{ type: 'text', content: 'Track {{trackingUrl}}' }],
  },
}
const SMS = {
  template: { type: 'sms', content: '{{#each items}}{{name}}{{/each}}' },
  filters: [
    {
      isNegated: false,
      type: 'GROUP',
      value: 'AND',
      children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }],
    },
  ],
}
const DIGEST = {
  template: { type: 'digest' },
  metadata: { amount: 5, unit: 'minutes', digestKey: 'orderId', type: 'regular' },
}
const DELAY = {
  uuid: '5d0f3c1e-8a4b-4e7d-9a55-2f1e0c9b7a11',
  active: false,
  template: { type: 'delay' },
  metadata: { amount: 1, unit: 'hours', type: 'scheduled', delayPath: 'sendAt' },
}
const WITH_VARIANT = {
  template: { type: 'in_app', content: 'base' },
  variants: [
    {
      name: 'tenant variant',
      template: { type: 'in_app', content: 'Hello {{tenant.name}}' },
      filters: [
        { children: [{ field: 'identifier', value: 't', operator: 'EQUAL', on: 'tenant' }] },
      ],
    },
  ],
}
const EDITOR = {
  template: {
    type: 'email',
    contentType: 'editor',
    subject: 's',
    content: '<p onclick="x()">{{a}}</p><script>1</script>',
  },
}

export const workflowBody: fc.Arbitrary<unknown> = fc
  .record(
    {
      name: fc.oneof(fc.constantFrom('Order Shipped', 'Test', 'Tom & Jerry', '你好'), oddString),
      notificationGroupId: fc.oneof(
        fc.constantFrom(GENERAL_GROUP, BILLING_GROUP, GENERAL_GROUP.toUpperCase()),
        hex24
      ),
      description: fc.string({ maxLength: 20 }),
      tags: fc.array(fc.constantFrom('orders', 'a', ''), { maxLength: 2 }),
      active: fc.boolean(),
      critical: fc.boolean(),
      preferenceSettings: fc.constant({ email: false, sms: 'true', push: 1 }),
      data: fc.constant({ custom: [1, { deep: true }] }),
      steps: fc.subarray([IN_APP, EMAIL, SMS, DIGEST, DELAY, WITH_VARIANT, EDITOR]),
    },
    { requiredKeys: ['name', 'notificationGroupId', 'steps'] }
  )
  .chain((body) =>
    fc.oneof(
      { weight: 5, arbitrary: fc.constant<Record<string, unknown>>(body) },
      {
        weight: 1,
        arbitrary: fc.constant({
          ...body,
          blueprintId: 'bp-1',
          notificationGroup: { name: 'Imported' },
        }),
      }
    )
  )

// ---------------------------------------------------------------------------------------------
// Paths and queries

/** Percent-encodes any string, lone surrogates included (as the invalid UTF-8 they would be). */
export function encodeSegment(text: string): string {
  let out = ''
  for (const char of text) {
    try {
      out += encodeURIComponent(char)
    } catch {
      out += '%ED%A0%80'
    }
  }
  return out
}

const RAW_ESCAPES = ['%zz', '%', '%00', '%2F', '%2f..%2f', '%E0%A4%A', '%ED%A0%80', '%25', '%2525']

/** A path segment: usually encoded, sometimes with a raw or invalid escape. */
const segment = (values: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 5, arbitrary: values.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(values.map(encodeSegment), fc.constantFrom(...RAW_ESCAPES))
        .map(([a, b]) => a + b),
    }
  )

const numberLike = fc.oneof(
  fc.constantFrom('0', '-0', '1', '2', '10', '11', '100', '101', '1000', '1001', '-1', '1.5'),
  fc.constantFrom('', ' 5 ', '1e308', '-1e308', 'NaN', 'Infinity', '0x10', '0.0', 'abc', '1e1'),
  oddString
)

/** A query string from name/value pairs: names repeat, values are odd, escapes may be invalid. */
function queryOf(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'x', 'pa%67e') },
    { weight: 1, arbitrary: oddString.map(encodeSegment) }
  )
  const value = fc.oneof(
    { weight: 5, arbitrary: numberLike.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES, '+', 'a+b', '%2B') }
  )
  const pair = fc
    .tuple(name, value, fc.boolean())
    .map(([n, v, bare]) => (bare && v === '' ? n : `${n}=${v}`))
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''))
}

// ---------------------------------------------------------------------------------------------
// Headers

const POOL_KEYS = ['prop-key-a', 'prop-key-b']
const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...POOL_KEYS).map((k) => `ApiKey ${k}`) },
  { weight: 2, arbitrary: fc.constant(`ApiKey ${PRODUCTION_KEY}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'ApiKey',
      'ApiKey ',
      'apikey prop-key-a',
      'Bearer x',
      'Bearer ',
      'Basic eDp5',
      'None',
      'ApiKey a b',
      `ApiKey ${'k'.repeat(256)}`,
      `ApiKey ${'k'.repeat(257)}`,
      `ApiKey ${'k'.repeat(LONG)}`
    ),
  },
  { weight: 1, arbitrary: oddString.map((s) => `ApiKey ${toHeaderValue(s)}`) }
)

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  '',
]

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: oddString.map(toHeaderValue) }
)

const extraHeaders = fc.dictionary(
  fc.constantFrom('X-Long', 'Idempotency-Key', 'Novu-Environment-Id', 'Accept', 'X-Odd'),
  fc.oneof(oddString.map(toHeaderValue), fc.constant('v'.repeat(LONG))),
  { maxKeys: 2 }
)

function headersOf(auth: string | undefined, type: string | undefined, extra: object) {
  const headers: Record<string, string> = { ...(extra as Record<string, string>) }
  if (auth !== undefined) headers.Authorization = auth
  if (type !== undefined) headers['Content-Type'] = type
  return headers
}

// ---------------------------------------------------------------------------------------------
// Requests

interface ProbeSpec {
  method: fc.Arbitrary<string> | string
  path: fc.Arbitrary<string>
  body?: fc.Arbitrary<string | undefined>
  auth?: fc.Arbitrary<string | undefined>
}

function probe({ method, path, body, auth = authorization }: ProbeSpec): fc.Arbitrary<Probe> {
  return fc
    .record({
      method: typeof method === 'string' ? fc.constant(method) : method,
      path,
      body: body ?? fc.constant(undefined),
      auth,
      type: contentType,
      extra: extraHeaders,
    })
    .map(({ method, path, body, auth, type, extra }) => {
      // fetch refuses a body on GET and HEAD.
      const sent = method === 'GET' || method === 'HEAD' ? undefined : body
      return {
        method,
        path,
        headers: headersOf(auth, sent === undefined ? undefined : type, extra),
        ...(sent === undefined ? {} : { body: sent }),
      }
    })
}

const groupId = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(GENERAL_GROUP, BILLING_GROUP, GENERAL_GROUP.toUpperCase()),
  },
  { weight: 2, arbitrary: hex24 },
  { weight: 2, arbitrary: oddString.filter((s) => s.length > 0) }
)
const workflowId = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(WELCOME_WORKFLOW, ORDER_WORKFLOW, ORDER_WORKFLOW.toUpperCase()),
  },
  { weight: 1, arbitrary: fc.constantFrom('welcome-email', 'order-shipped') },
  { weight: 1, arbitrary: hex24 },
  { weight: 2, arbitrary: oddString.filter((s) => s.length > 0) }
)
const transactionId = fc.oneof(
  fc.constantFrom(...TRANSACTIONS),
  oddString.filter((s) => s.length > 0)
)
const prefix = fc.constantFrom('/v1/workflows', '/v1/notification-templates')
const optionalBody = (value: fc.Arbitrary<unknown>) =>
  fc.option(bodyText(value), { nil: undefined, freq: 4 })

// Values at the edge of Mongoose's casts (lib/cast/*.js): some cast, some fail the save.
const CAST_EDGES = [
  '""',
  '"  "',
  '"5"',
  '"abc"',
  '"yes"',
  '"maybe"',
  'true',
  'false',
  '1',
  '0',
  '2',
  '1e400',
  '-0',
  'null',
  '{}',
  '[]',
  '[1]',
  '{"_id":"abc"}',
  '{"toString":1}',
]
const CAST_PATHS: (string | number)[][] = [
  ['steps', 0, 'active'],
  ['steps', 0, 'shouldStopOnFail'],
  ['steps', 0, 'name'],
  ['steps', 0, 'uuid'],
  ['steps', 0, 'metadata', 'amount'],
  ['steps', 0, 'metadata', 'unit'],
  ['steps', 0, 'metadata', 'backoff'],
  ['steps', 0, 'metadata', 'timed', 'monthDays', 0],
  ['steps', 0, 'filters', 0, 'isNegated'],
  ['steps', 0, 'filters', 0, 'children', 0, 'field'],
  ['steps', 0, 'template', 'subject'],
  ['steps', 0, 'template', 'variables', 0, 'required'],
  ['steps', 0, 'variants', 0, 'active'],
  ['tags', 0],
  ['preferenceSettings', 'email'],
]

/** A valid workflow with one value at a position Mongoose casts replaced by an edge value. */
const castWorkflowBody: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...CAST_PATHS), fc.constantFrom(...CAST_EDGES))
  .map(([path, value]) => {
    const base = {
      name: 'Cast',
      notificationGroupId: GENERAL_GROUP,
      tags: ['a'],
      preferenceSettings: { email: true },
      steps: [
        {
          ...DIGEST,
          name: 'Digest',
          metadata: { ...DIGEST.metadata, timed: { monthDays: [1] } },
          filters: SMS.filters,
          variants: [{ ...WITH_VARIANT.variants[0] }],
          template: { type: 'digest', subject: 's', variables: [{ name: 'v' }] },
        },
      ],
    }
    return toJson(updateAt(base, path, () => new Raw(value)))
  })

// ---------------------------------------------------------------------------------------------
// Templates that are deep, long or repetitive (issue #9): extraction and sanitising must answer
// promptly whatever their size, inside the limits or past them.

const templateName = fc.oneof(
  fc.constantFrom('a', 'items', 'this', 'tenant.name', 'subscriber.email', '@index', '5'),
  fc.integer({ min: 1, max: 5000 }).map((n) => 'n'.repeat(n))
)

/** Ways of wrapping a template in one more level. */
const WRAPS: ((name: string, inner: string) => string)[] = [
  (name, inner) => `{{#each ${name}}}${inner}{{/each}}`,
  (name, inner) => `{{#with ${name}}}${inner}{{/with}}`,
  (name, inner) => `{{#if ${name}}}${inner}{{else}}x{{/if}}`,
  (name, inner) => `{{#unless ${name}}}${inner}{{/unless}}`,
  (name, inner) => `{{#if ${name}}}x{{else if ${name}}}${inner}{{/if}}`,
  (name, inner) => `{{^${name}}}${inner}{{/${name}}}`,
  (name, inner) => `{{titlecase (lowercase ${name})}}${inner}`,
]

const deepTemplate = fc
  .record({
    depth: fc.integer({ min: 1, max: 160 }),
    wraps: fc.array(fc.nat(WRAPS.length - 1), { minLength: 1, maxLength: 4 }),
    name: templateName,
    leaf: fc.constantFrom('{{x}}', '', '{{#if}}', '{{i18n "k" a=b}}'),
  })
  .map(({ depth, wraps, name, leaf }) => {
    let text: string = leaf
    for (let i = 0; i < depth; i++) text = WRAPS[wraps[i % wraps.length] ?? 0]!(name, text)
    return text
  })

const SNIPPETS = [
  '{{a}}',
  '{{a b c}}',
  '{{#if a}}x{{/if}}',
  '{{! note }}',
  '{{i18n "k" a=b}}',
  '<p>{{x}}</p>\n',
  '\n',
  '\\{{a}}',
  '{{{{raw}}}}{{x}}{{{{/raw}}}}',
]

const repetitiveTemplate = fc
  .record({ snippet: fc.constantFrom(...SNIPPETS), times: fc.integer({ min: 1, max: 60_000 }) })
  .map(({ snippet, times }) => snippet.repeat(times))

const longTemplate = fc
  .tuple(fc.integer({ min: 1, max: 1_500_000 }), fc.constantFrom('{{%}}', 'x%{{y}}', '{{a %}}'))
  .map(([n, shape]) => shape.replace('%', 'v'.repeat(n)))

const deepHtml = fc
  .record({
    depth: fc.integer({ min: 1, max: 2000 }),
    tag: fc.constantFrom('div', 'p', 'li', 'td', 'span', 'img', 'x-y'),
    closed: fc.boolean(),
  })
  .map(
    ({ depth, tag, closed }) => `<${tag}>`.repeat(depth) + (closed ? `</${tag}>`.repeat(depth) : '')
  )

/** A Handlebars Program sent as an object: upstream passes it to Handlebars as it is. */
const programAst = fc
  .record({ depth: fc.integer({ min: 0, max: 150 }), name: templateName })
  .map(({ depth, name }) => {
    let program: Record<string, unknown> = { type: 'Program', body: [] }
    for (let i = 0; i < depth; i++) {
      const block = {
        type: 'BlockStatement',
        path: { original: 'each' },
        params: [{ original: name }],
      }
      program = { type: 'Program', body: [{ ...block, program }] }
    }
    return { program, depth }
  })

const stressText = fc.oneof(deepTemplate, repetitiveTemplate, longTemplate)

/** One step whose template stresses extraction or sanitising, and how deep its AST nests. */
const stressStep = fc.oneof(
  stressText.map((content) => ({ template: { type: 'in_app', content }, astDepth: 0 })),
  fc.tuple(stressText, stressText).map(([content, title]) => ({
    template: { type: 'push', content, title },
    astDepth: 0,
  })),
  fc.array(stressText, { minLength: 1, maxLength: 3 }).map((texts) => ({
    template: {
      type: 'email',
      subject: 's',
      content: texts.map((content) => ({ type: 'text', content })),
    },
    astDepth: 0,
  })),
  fc.oneof(deepHtml, deepTemplate).map((content) => ({
    template: { type: 'email', contentType: 'editor', subject: 's', content },
    astDepth: 0,
  })),
  programAst.map(({ program, depth }) => ({
    template: { type: 'sms', content: program },
    astDepth: depth,
  }))
)

/** A workflow of one to three stressing steps, and the deepest AST it sends. */
export const stressWorkflowBody = fc
  .array(stressStep, { minLength: 1, maxLength: 3 })
  .map((steps) => ({
    body: JSON.stringify({
      name: 'Stress',
      notificationGroupId: GENERAL_GROUP,
      steps: steps.map(({ template }, i) => ({ name: `Step ${i}`, template })),
    }),
    astDepth: Math.max(...steps.map((s) => s.astDepth)),
  }))

export const activeBody = mutated(fc.record({ active: fc.boolean() }))
export const groupBody = mutated(fc.record({ name: fc.oneof(fc.constant('Billing 2'), oddString) }))

/** One random request to one of the Novu routes, or to a path or method that none serves. */
export const novuProbe: fc.Arbitrary<Probe> = fc.oneof(
  probe({ method: 'GET', path: queryOf(['page', 'pageSize', 'key']).map((q) => `/v1/topics${q}`) }),
  probe({ method: 'GET', path: queryOf(['x']).map((q) => `/v1/notification-groups${q}`) }),
  probe({
    method: 'POST',
    path: fc.constant('/v1/notification-groups'),
    body: bodyText(groupBody),
  }),
  probe({
    method: fc.constantFrom('GET', 'DELETE', 'HEAD'),
    path: segment(groupId).map((id) => `/v1/notification-groups/${id}`),
    body: optionalBody(adversarialJson),
  }),
  probe({
    method: 'GET',
    path: queryOf(['page', 'limit', 'channel', 'subscriberId', 'transactionId']).map(
      (q) => `/v1/messages${q}`
    ),
  }),
  probe({
    method: 'DELETE',
    path: fc
      .tuple(segment(transactionId), queryOf(['channel']))
      .map(([id, q]) => `/v1/messages/transaction/${id}${q}`),
  }),
  probe({
    method: 'DELETE',
    path: segment(fc.oneof(hex24, oddString)).map((id) => `/v1/messages/${id}`),
  }),
  probe({
    method: 'GET',
    path: fc.tuple(prefix, queryOf(['page', 'limit', 'query'])).map(([p, q]) => p + q),
  }),
  probe({
    method: 'GET',
    path: fc.tuple(prefix, segment(workflowId)).map(([p, id]) => `${p}/${id}`),
  }),
  probe({ method: 'POST', path: prefix, body: bodyText(mutated(workflowBody)) }),
  probe({ method: 'POST', path: prefix, body: castWorkflowBody }),
  probe({
    method: 'PUT',
    path: fc.tuple(prefix, segment(workflowId)).map(([p, id]) => `${p}/${id}/status`),
    body: bodyText(activeBody),
  }),
  probe({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    path: fc
      .array(
        segment(
          fc.oneof(
            fc.constantFrom('v1', 'v2', 'topics', 'workflows', 'messages', 'transaction', '..'),
            oddString.filter((s) => s.length > 0)
          )
        ),
        { minLength: 0, maxLength: 4 }
      )
      .map((parts) => `/${parts.join('/')}`),
    body: optionalBody(adversarialJson),
  })
)

// ---------------------------------------------------------------------------------------------
// The control plane

const RULE_BASES = [
  { match: { path: '/v1/topics' }, fault: { status: 503 } },
  {
    id: 'status-flake',
    description: 'flaky status',
    match: {
      method: ['GET', 'put'],
      path: '/v1/workflows/:id/status',
      apiKey: 'chaos',
      query: { a: 'b' },
    },
    delay: { distribution: 'uniform', min: 1, max: 5 },
    probability: 0.5,
    times: 2,
    after: 1,
  },
  {
    match: { path: '/v1/*' },
    sequence: [
      { status: 500, body: { x: 1 }, headers: { 'Retry-After': '1' } },
      { pass: true },
      { network: 'slow-body', chunkBytes: 4, intervalMs: 1 },
    ],
  },
  { match: {}, delay: { distribution: 'lognormal', median: 10, sigma: 1 } },
  { match: { method: 'DELETE' }, fault: { network: 'reset' } },
]

export const ruleBody = bodyText(mutated(fc.constantFrom(...RULE_BASES)))

const SCENARIO_BASE = {
  name: 'prop-scenario',
  description: 'random',
  seed: 7,
  fixture: 'default',
  environments: { keys: [{ apiKey: 'prod', role: 'Production' }], strict: false },
  data: {
    notificationGroups: [{ name: 'Extra' }],
    topics: [{ key: 'k', name: 'K', subscribers: ['s1'] }],
    workflows: [
      {
        name: 'Scenario Workflow',
        notificationGroupId: GENERAL_GROUP,
        active: true,
        steps: [IN_APP, DIGEST],
      },
    ],
    messages: [{ transactionId: 'tx-1', channel: 'email', subscriberId: 's1' }],
    generate: { notificationGroups: 1, topics: 2, workflows: 1, transactions: 1 },
  },
  rules: [RULE_BASES[0]],
  clock: { mode: 'fixed', at: '2024-10-01T09:00:00.000Z' },
}

const SCENARIO_NAMES = [
  'default',
  '/',
  '/etc',
  'empty',
  'flaky-network',
  'production-key',
  'rate-limited',
  'nope',
  '/etc/passwd',
  '/etc/hostname',
  'default.yaml',
  '../scenarios/default.yaml',
  'x.yaml',
  'package.json',
]

export const scenarioBody: fc.Arbitrary<string> = fc.oneof(
  bodyText(
    mutated(fc.constantFrom(...SCENARIO_NAMES).map((name) => ({ name }) as Record<string, unknown>))
  ),
  bodyText(mutated(fc.constant({ scenario: SCENARIO_BASE }))),
  bodyText(mutated(fc.constant({ name: 'default', scenario: SCENARIO_BASE })))
)

/** A body for PUT /__admin/state: an environment export, changed at random. */
const stateBody = bodyText(mutated(fc.constant(SCENARIO_BASE.data)))

const adminKey = fc.oneof(
  fc.constantFrom(...POOL_KEYS, PRODUCTION_KEY, 'admin-new'),
  oddString,
  fc.constant('k'.repeat(257))
)

/** One random request to a control-plane route, valid or not. */
export const adminProbe: fc.Arbitrary<Probe> = fc.oneof(
  probe({
    method: fc.constantFrom('GET', 'HEAD'),
    path: fc.constantFrom(
      '/__admin/health',
      '/__admin/scenarios',
      '/__admin/scenario',
      '/__admin/rules',
      '/__admin/latency',
      '/__admin/openapi.json'
    ),
  }),
  probe({ method: 'POST', path: fc.constant('/__admin/scenario'), body: scenarioBody }),
  probe({
    method: 'POST',
    path: queryOf(['apiKey']).map((q) => `/__admin/reset${q}`),
    body: optionalBody(adversarialJson),
  }),
  probe({
    method: 'GET',
    path: fc
      .tuple(adminKey, queryOf(['apiKey']))
      .map(([key, q]) => `/__admin/state?apiKey=${encodeSegment(key)}${q.replace('?', '&')}`),
  }),
  probe({
    method: 'PUT',
    path: adminKey.map((key) => `/__admin/state?apiKey=${encodeSegment(key)}`),
    body: stateBody,
  }),
  probe({ method: 'POST', path: fc.constant('/__admin/rules'), body: ruleBody }),
  probe({
    method: 'DELETE',
    path: segment(fc.oneof(fc.constantFrom('rule-1', 'status-flake'), oddString)).map(
      (id) => `/__admin/rules/${id}`
    ),
  }),
  probe({ method: 'DELETE', path: fc.constantFrom('/__admin/rules', '/__admin/requests') }),
  probe({
    method: 'PUT',
    path: fc.constant('/__admin/latency'),
    body: bodyText(mutated(fc.constant({ ms: 0 }))),
  }),
  probe({
    method: 'GET',
    path: fc
      .tuple(
        fc.constantFrom('/__admin/requests', '/__admin/requests/count', '/__admin/requests/export'),
        queryOf(['method', 'path', 'status', 'apiKey', 'since', 'matched', 'limit', 'format'])
      )
      .map(([p, q]) => p + q),
  })
)
