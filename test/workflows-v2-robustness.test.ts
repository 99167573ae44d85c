import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createLogger } from '../src/log.js'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

// Whatever a client sends to /v2/workflows, the mock answers as upstream's validation layers
// do (or with upstream's 500 for what crashes it there), logs no unexpected error, and keeps
// nothing a refused request carried.

function harness() {
  const mock = createMock({ seed: 'v2-prop', logLevel: 'silent' })
  const unexpected: string[] = []
  mock.state.logger = createLogger('error', (line) => unexpected.push(line) > 0)
  return { app: mock.app, unexpected }
}

const STEP_TYPES = [
  'email',
  'in_app',
  'sms',
  'push',
  'chat',
  'tool',
  'delay',
  'digest',
  'throttle',
  'custom',
  'http_request',
  'trigger',
  'fax',
]
const odd = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    '\u202e',
    '😀'.repeat(70),
    '{{}}',
    '{{ a b }}',
    '__proto__',
    'constructor'
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null)
)
const value = fc.oneof(
  odd,
  fc.array(odd, { maxLength: 3 }),
  fc.dictionary(fc.string(), odd, { maxKeys: 3 })
)
const step = fc.record(
  {
    name: fc.oneof(fc.string(), odd),
    type: fc.oneof(fc.constantFrom(...STEP_TYPES), odd),
    stepId: fc.oneof(fc.constantFrom('ok', 'a.b-c_d', '_bad'), odd),
    _id: value,
    controlValues: fc.oneof(
      value,
      fc.dictionary(
        fc.constantFrom(
          'subject',
          'body',
          'type',
          'amount',
          'unit',
          'cron',
          'redirect',
          'editorType',
          'skip',
          'url',
          'method'
        ),
        value
      )
    ),
    providerOverrides: value,
  },
  { requiredKeys: [] }
)
const body = fc.record(
  {
    name: fc.oneof(fc.string(), odd),
    workflowId: fc.oneof(fc.constantFrom('ok', 'a.b', '-x-'), odd),
    steps: fc.oneof(fc.array(step, { maxLength: 4 }), value),
    description: value,
    tags: fc.oneof(fc.array(fc.string(), { maxLength: 18 }), value),
    active: value,
    severity: fc.oneof(fc.constantFrom('high', 'none'), odd),
    payloadSchema: fc.oneof(fc.constantFrom({ type: 'object' }, { type: 'nope' }), value),
    preferences: value,
    agent: value,
  },
  { requiredKeys: [] }
)

const hasNullStep = (b: Record<string, unknown>) =>
  Array.isArray(b.steps) && b.steps.some((s) => s === null)

test('any create body answers 201, 400, 422, or the 500 of a null step, and logs nothing unexpected', async () => {
  await fc.assert(
    fc.asyncProperty(body, async (sent) => {
      const { app, unexpected } = harness()
      const res = await request(app, 'POST', '/v2/workflows', { body: sent })
      if (hasNullStep(sent)) expect(res.status).toBe(500)
      else expect([201, 400, 422]).toContain(res.status)
      expect(unexpected).toEqual([])
      if (res.status !== 201) {
        const list = await request(app, 'GET', '/v2/workflows')
        expect(list.body.data.totalCount).toBe(8)
      }
    }),
    { numRuns: 300 }
  )
})

test('any patch or put body on a workflow answers 200 or 422 and a refused one changes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('PATCH', 'PUT'), body, async (method, sent) => {
      const { app, unexpected } = harness()
      const before = await request(app, 'GET', '/v2/workflows/welcome-email')
      const res = await request(app, method, '/v2/workflows/welcome-email', { body: sent })
      if (method === 'PUT' && hasNullStep(sent)) expect(res.status).toBe(500)
      else expect([200, 400, 422]).toContain(res.status)
      expect(unexpected).toEqual([])
      if (res.status !== 200) {
        const after = await request(app, 'GET', '/v2/workflows/welcome-email')
        expect(after.body).toEqual(before.body)
      }
    }),
    { numRuns: 200 }
  )
})

test('odd path values answer 404 naming them, never 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, unit: 'grapheme' }), async (raw) => {
      const { app, unexpected } = harness()
      const res = await request(app, 'GET', `/v2/workflows/${encodeURIComponent(raw)}`)
      expect([200, 404]).toContain(res.status)
      expect(unexpected).toEqual([])
    }),
    { numRuns: 200 }
  )
})

test("a body nested thousands of levels deep is upstream's 500, logged as a known failure", async () => {
  const { app, unexpected } = harness()
  const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`
  const res = await request(app, 'POST', '/v2/workflows', {
    body: `{"name":"Deep","workflowId":"deep","steps":[{"name":"C","type":"custom","controlValues":{"deep":${deep}}}]}`,
  })
  expect(res.status).toBe(500)
  expect(unexpected).toEqual([])
})
