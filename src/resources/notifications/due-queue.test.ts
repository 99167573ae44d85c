import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createDueQueue } from './due-queue.js'
import { createNotificationStore, type Job } from './notifications.store.js'

// The delayed jobs' queue: what comes out, and in which order, must be what a list sorted by
// due time (first queued first among equals) would give, whatever was taken out early.

type Op = { add: number; due: number } | { remove: number } | { take: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ add: fc.nat(30), due: fc.nat(20) }),
  fc.record({ remove: fc.nat(30) }),
  fc.record({ take: fc.nat(25) })
)

test('items come out earliest first, the first queued first among equals, as a sorted list gives', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
      const queue = createDueQueue<number>()
      let list: { item: number; due: number }[] = []
      for (const o of ops) {
        if ('add' in o) {
          queue.add(o.add, o.due)
          list = list.filter((e) => e.item !== o.add)
          const at = list.findIndex((e) => e.due > o.due)
          list.splice(at < 0 ? list.length : at, 0, { item: o.add, due: o.due })
        } else if ('remove' in o) {
          queue.remove(o.remove)
          list = list.filter((e) => e.item !== o.remove)
        } else {
          const first = list[0]
          const expected = first && first.due <= o.take ? first.item : undefined
          if (expected !== undefined) list.shift()
          expect(queue.takeDue(o.take)).toBe(expected)
        }
        expect(queue.size()).toBe(list.length)
      }
    }),
    { numRuns: 200, seed: 18 }
  )
})

function delayedJob(i: number): Job {
  return {
    _id: `job-${i}`,
    type: 'delay',
    status: 'pending',
    _subscriberId: `s${i}`,
    _templateId: 't',
    _notificationId: `n${i}`,
    executionDetails: [],
  } as unknown as Job
}

// Issue 18: each cancel filtered the whole waiting list, 100,000 of them 10^10 steps.
test('100,000 delayed jobs taken off the waiting list one by one leave it empty', () => {
  const store = createNotificationStore()
  const jobs = Array.from({ length: 100_000 }, (_, i) => delayedJob(i))
  for (const job of jobs) store.delay(job, '2025-03-01T10:05:00.000Z')
  expect(store.pendingCount()).toBe(100_000)
  for (const job of jobs) store.unschedule(job)
  expect(store.pendingCount()).toBe(0)
  expect(store.nextDue('2030-01-01T00:00:00.000Z')).toBeUndefined()
})

test('due dates compare as times, not as text', () => {
  const store = createNotificationStore()
  const late = delayedJob(1)
  const early = delayedJob(2)
  store.delay(late, '+010000-01-01T00:00:00.000Z')
  store.delay(early, '2025-03-01T10:05:00.000Z')
  expect(store.nextDue('2030-01-01T00:00:00.000Z')).toBe(early)
  expect(store.nextDue('2030-01-01T00:00:00.000Z')).toBeUndefined()
})
