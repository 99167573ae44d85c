// The journal's byte regions (journal.ts): a request's texts are kept as bytes in its slot, 512
// a slot until a request of the slot's chunk of 64 needs more, then 1,536 for that chunk alone.
import { expect, test } from 'vitest'
import { createJournal } from './journal.js'

/** An entry whose builder hands back the texts it was given, as the request recorder's does. */
function record(journal: ReturnType<typeof createJournal>, texts: (string | undefined)[]) {
  return journal.recordReusing(
    () => ({
      toEntry: (_head?: string, kept?: readonly (string | undefined)[]) => ({
        method: 'GET',
        path: kept?.[0] ?? '',
        query: {},
        headers: {},
        body: kept?.slice(1).join('|'),
        status: 200,
        matched: true,
        durationMs: 0,
        at: '2026-11-27T00:00:00.000Z',
      }),
    }),
    { texts }
  )
}

test('a journal of short requests keeps 512 bytes a slot in its regions', () => {
  const journal = createJournal(128)
  const held: number[] = []
  for (let i = 0; i < 65; i++) {
    record(journal, [`/v1/topics?page=${i}`, 'ApiKey k'])
    held.push(journal.heldBytes())
  }
  // The 64th request takes a slot of the first chunk; the 65th starts the second chunk.
  const slot = held[63]! - held[62]!
  expect(held[64]! - held[63]! - slot).toBe(64 * 512)
})

test('a long request widens its own chunk to 1,536 bytes a slot, and the others keep theirs', () => {
  const journal = createJournal(128)
  for (let i = 0; i < 128; i++) record(journal, [`/v1/topics?page=${i}`, 'ApiKey k'])
  const small = journal.heldBytes()
  record(journal, ['/v1/workflows', 'x'.repeat(1000)])
  expect(journal.heldBytes() - small).toBe(64 * (1536 - 512))
})

test('texts written before a chunk widens read back whole after it', () => {
  const journal = createJournal(64)
  const ids = [0, 1, 2].map((i) => record(journal, [`/path/${i}`, `ключ ${i} ✓`]))
  record(journal, ['/long', 'é'.repeat(600)])
  const entries = journal.list().reverse()
  expect(entries.map((e) => e.id)).toEqual([...ids, ids[2]! + 1])
  expect(entries.map((e) => e.path)).toEqual(['/path/0', '/path/1', '/path/2', '/long'])
  expect(entries[1]?.body).toBe('ключ 1 ✓')
  expect(entries[3]?.body).toBe('é'.repeat(600))
})

test('texts past 1,536 bytes stay strings, and read back whole', () => {
  const journal = createJournal(64)
  record(journal, ['/huge', 'y'.repeat(3000)])
  expect(journal.list()[0]?.body).toBe('y'.repeat(3000))
})
