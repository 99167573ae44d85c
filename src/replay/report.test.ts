import { expect, test } from 'vitest'
import { formatReport, type ReplayReport, type StepReport } from './report.js'

const step = (over: Partial<StepReport>): StepReport => ({
  index: 1,
  method: 'GET',
  path: '/v1/topics',
  status: 200,
  durationMs: 3,
  ok: true,
  failures: [],
  ...over,
})

const report = (steps: StepReport[], counts: Partial<ReplayReport> = {}): ReplayReport => ({
  name: 'r',
  target: 'http://x',
  passed: 0,
  failed: 0,
  skipped: 0,
  steps,
  ...counts,
})

test('prints one line per step and the totals last', () => {
  const text = formatReport(
    report(
      [
        step({}),
        step({
          index: 2,
          method: 'POST',
          path: '/v1/workflows',
          status: 400,
          ok: false,
          failures: [
            'status: expected 201, got 400',
            'body.data: expected an object, got (missing)',
          ],
        }),
      ],
      { passed: 1, failed: 1 }
    )
  )
  expect(text.split('\n')).toEqual([
    '✓ 1 GET /v1/topics → 200 (3 ms)',
    '✗ 2 POST /v1/workflows → 400: status: expected 201, got 400; body.data: expected an object, got (missing)',
    '1 passed, 1 failed',
  ])
})

test('says "no response" for a step that got none and names named steps', () => {
  const text = formatReport(
    report([step({ status: 0, ok: false, failures: ['network: fetch failed'], name: 'list' })])
  )
  expect(text.split('\n')[0]).toBe(
    '✗ 1 GET /v1/topics → no response: network: fetch failed  # list'
  )
})

test('counts skipped steps only when there are some', () => {
  const text = formatReport(report([step({ skipped: true, status: 0 })], { skipped: 1 }))
  expect(text.split('\n')).toEqual(['- 1 GET /v1/topics skipped', '0 passed, 0 failed, 1 skipped'])
})
