// Issue #9, finding 3: path patterns in chaos rules and journal filters cost at most the path's
// length times a bounded segment count, and a pattern beyond the limits is refused up front.
import { expect, test } from 'vitest'
import {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_SEGMENTS,
  MAX_PATTERN_WILDCARDS,
  MAX_READS_PER_CHARACTER,
  pathMatchingWork,
} from '../src/http/path-pattern.js'
import { createMock } from '../src/mock.js'
import { counted, request } from './helpers.js'

const mock = () => createMock({ seed: 'patterns', logLevel: 'silent' }).app

/** A pattern at every limit that almost matches a path of `/a` segments, and then does not. */
function longPattern(tag: number): string {
  const middle = Array(MAX_PATTERN_SEGMENTS - 3)
    .fill('a')
    .join('/')
  return `/v1/*/${middle}/b${tag}*`.padEnd(MAX_PATTERN_LENGTH - 2, 'c') + '*x'
}

/** Ends as the long patterns do, so that only their middle, the costly part, can refuse it. */
const EIGHT_KB_PATH = `/v1/topics${'/a'.repeat(4096)}x`

const MANY = 1000

test('the long test patterns stay within every limit', () => {
  const pattern = longPattern(999)
  expect(pattern.length).toBe(MAX_PATTERN_LENGTH)
  expect(pattern.split('/').length - 1).toBeLessThanOrEqual(MAX_PATTERN_SEGMENTS)
  expect(pattern.split('*').length - 1).toBeLessThanOrEqual(MAX_PATTERN_WILDCARDS)
})

test('a Novu request with an 8 kB path under 1,000 long-pattern rules reads the path a few times per rule at most', async () => {
  const app = mock()
  for (let i = 0; i < MANY; i++) {
    const res = await request(app, 'POST', '/__admin/rules', {
      body: { match: { path: longPattern(i) }, fault: { status: 503 } },
    })
    expect(res.status).toBe(201)
  }
  const { result: res, work: read } = await counted(pathMatchingWork, () =>
    request(app, 'GET', EIGHT_KB_PATH)
  )
  expect(res.status).toBe(404)
  expect(read).toBeGreaterThan(0)
  expect(read).toBeLessThanOrEqual(MANY * MAX_READS_PER_CHARACTER * (EIGHT_KB_PATH.length + 1))
})

test('a rule among 1,000 long-pattern rules still fires on the path it matches', async () => {
  const app = mock()
  for (let i = 0; i < 999; i++)
    await request(app, 'POST', '/__admin/rules', {
      body: { match: { path: longPattern(i) }, fault: { status: 503 } },
    })
  await request(app, 'POST', '/__admin/rules', {
    body: { match: { path: '/v1/*/a/*' }, fault: { status: 429 } },
  })
  expect((await request(app, 'GET', EIGHT_KB_PATH)).status).toBe(429)
})

test('a journal filter at the length limit over 1,000 entries with 8 kB paths reads each path a few times at most', async () => {
  const app = mock()
  const paths = Array.from({ length: MANY }, (_, i) => `${EIGHT_KB_PATH.slice(0, -1)}${i}x`)
  for (const path of paths) await app.request(path)
  const filter = `/__admin/requests?limit=1&path=${encodeURIComponent(longPattern(1))}`
  const { result: res, work: read } = await counted(pathMatchingWork, () =>
    request(app, 'GET', filter)
  )
  expect(res.status).toBe(200)
  expect(res.body.totalCount).toBe(0)
  const chars = paths.reduce((sum, path) => sum + path.length + 1, 0)
  expect(read).toBeGreaterThan(0)
  expect(read).toBeLessThanOrEqual(MAX_READS_PER_CHARACTER * chars)
})

test('a 2,047-character journal filter is refused with a message naming the limit', async () => {
  const res = await request(
    mock(),
    'GET',
    `/__admin/requests?path=${encodeURIComponent(`/v1/*${'a'.repeat(2042)}`)}`
  )
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.text).toContain(`at most ${MAX_PATTERN_LENGTH} characters`)
})

test('a chaos rule with an over-long path pattern is refused with a message naming the limit', async () => {
  const res = await request(mock(), 'POST', '/__admin/rules', {
    body: { match: { path: `/v1/${'a'.repeat(MAX_PATTERN_LENGTH)}` }, fault: { status: 503 } },
  })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.text).toContain(`at most ${MAX_PATTERN_LENGTH} characters`)
})

test('a chaos rule with too many path segments is refused with a message naming the limit', async () => {
  const res = await request(mock(), 'POST', '/__admin/rules', {
    body: { match: { path: '/a'.repeat(MAX_PATTERN_SEGMENTS + 1) }, fault: { status: 503 } },
  })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.text).toContain(`at most ${MAX_PATTERN_SEGMENTS} segments`)
})

test('a chaos rule with too many wildcards is refused with a message naming the limit', async () => {
  const res = await request(mock(), 'POST', '/__admin/rules', {
    body: { match: { path: `/v1/${'*a'.repeat(MAX_PATTERN_WILDCARDS + 1)}` }, delay: 1 },
  })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.text).toContain(`at most ${MAX_PATTERN_WILDCARDS} wildcards (*)`)
})

test('a journal filter with too many wildcards is refused with a message naming the limit', async () => {
  const pattern = `/v1/${'*a'.repeat(MAX_PATTERN_WILDCARDS + 1)}`
  const res = await request(
    mock(),
    'GET',
    `/__admin/requests/count?path=${encodeURIComponent(pattern)}`
  )
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.text).toContain(`at most ${MAX_PATTERN_WILDCARDS} wildcards (*)`)
})
