import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { createLogger } from '../../log.js'

// Random and adversarial requests to the topic, subscription and subscriber routes: every answer
// is a status the route documents, in the 2026-08 error shape; no 500 that upstream would not
// give; a refused write changes nothing any read shows.

fc.configureGlobal({
  seed: Number(process.env.FC_SEED ?? 42),
  numRuns: Number(process.env.FC_RUNS ?? 40),
})

const KEY = 'robust'
const headers = { Authorization: `ApiKey ${KEY}`, 'Content-Type': 'application/json' }

function harness() {
  const mock = createMock({ seed: 'robust', logLevel: 'silent' })
  const unexpected: string[] = []
  mock.state.logger = createLogger('error', (line) => unexpected.push(line) > 0)
  return { app: mock.app, unexpected }
}
type App = ReturnType<typeof harness>['app']

const READS = [
  '/v2/topics?limit=100',
  '/v2/subscribers?limit=100',
  '/v1/topics/team-alpha',
  '/v2/topics/team-alpha/subscriptions?limit=100',
  '/v1/messages?limit=100',
]
// An error read carries the time it was answered: left out of the comparison.
const snapshot = async (app: App) =>
  Promise.all(
    READS.map(async (path) =>
      (await (await app.request(path, { headers })).text()).replace(/"timestamp":"[^"]*"/, '')
    )
  )

const oddText = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    ' ',
    'team-alpha',
    'user-1042',
    '__proto__',
    'constructor',
    '\ud800',
    '😀',
    'a'.repeat(600)
  )
)
const value: fc.Arbitrary<unknown> = fc.oneof(
  oddText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(oddText, { maxLength: 4 }),
  fc.dictionary(oddText, oddText, { maxKeys: 3 }),
  fc.array(fc.dictionary(fc.constantFrom('subscriberId', 'identifier', 'name'), oddText), {
    maxLength: 3,
  })
)
const body = fc.dictionary(
  fc.constantFrom(
    'key',
    'name',
    'subscriberId',
    'subscriberIds',
    'subscriptions',
    'subscribers',
    'email',
    'firstName',
    'locale',
    'timezone',
    'data',
    'preferences'
  ),
  value,
  { maxKeys: 4 }
)
// A lone surrogate cannot be percent-encoded (URIError): sent as U+FFFD instead.
const segment = oddText.map((text) =>
  encodeURIComponent((text || 'x').replace(/[\ud800-\udfff]/g, '\ufffd'))
)

const requests = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/v2/topics'), body }),
  fc.record({ method: fc.constant('PATCH'), path: segment.map((k) => `/v2/topics/${k}`), body }),
  fc.record({
    method: fc.constant('DELETE'),
    path: segment.map((k) => `/v2/topics/${k}`),
    body: fc.constant(undefined),
  }),
  fc.record({
    method: fc.constantFrom('POST', 'DELETE'),
    path: segment.map((k) => `/v2/topics/${k}/subscriptions`),
    body,
  }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/v2/subscribers'), body }),
  fc.record({
    method: fc.constant('PATCH'),
    path: segment.map((k) => `/v2/subscribers/${k}`),
    body,
  }),
  fc.record({
    method: fc.constant('DELETE'),
    path: segment.map((k) => `/v2/subscribers/${k}`),
    body: fc.constant(undefined),
  }),
  fc.record({
    method: fc.constantFrom('POST', 'PATCH'),
    path: segment.map((k) => `/v1/topics/${k}`),
    body,
  }),
  fc.record({
    method: fc.constant('POST'),
    path: segment.map((k) => `/v1/topics/${k}/subscribers`),
    body,
  }),
  fc.record({
    method: fc.constant('GET'),
    path: fc
      .tuple(
        fc.constantFrom('/v2/topics', '/v2/subscribers', '/v2/topics/team-alpha/subscriptions'),
        fc.dictionary(
          fc.constantFrom(
            'limit',
            'after',
            'before',
            'key',
            'name',
            'orderBy',
            'orderDirection',
            'email'
          ),
          oddText,
          { maxKeys: 3 }
        )
      )
      .map(([p, q]) => `${p}?${new URLSearchParams(q as Record<string, string>)}`),
    body: fc.constant(undefined),
  })
)

const DOCUMENTED = new Set([200, 201, 204, 400, 404, 409, 413, 422, 500])

test('every answer is documented, well shaped, and a refused write changes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(requests, { minLength: 1, maxLength: 6 }), async (sequence) => {
      const { app, unexpected } = harness()
      for (const r of sequence) {
        const before = await snapshot(app)
        const res = await app.request(r.path, {
          method: r.method,
          headers,
          ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
        })
        const text = await res.text()
        const context = `${r.method} ${r.path} ${JSON.stringify(r.body)} → ${res.status} ${text.slice(0, 300)}`
        expect(DOCUMENTED.has(res.status), context).toBe(true)
        if (res.status >= 400) {
          const error = JSON.parse(text)
          expect(error, context).toMatchObject({ statusCode: res.status, path: expect.any(String) })
          if (res.status === 422) expect(error.errors, context).toBeTypeOf('object')
          // Upstream's all-failed subscription answers may leave a topic it just created.
          const writesAnyway = res.status === 400 && /subscriptions$/.test(r.path)
          if (!writesAnyway && res.status !== 500)
            expect(await snapshot(app), context).toEqual(before)
        }
        expect(unexpected, context).toEqual([])
      }
    })
  )
}, 60_000)
