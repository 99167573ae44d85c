import { expect, test } from 'vitest'
import { createIdFactory } from './ids.js'
import { createRng } from './prng.js'
import { createWorkflowStore } from '../workflow-model/workflows.store.js'
import { createNotificationGroupStore } from '../resources/notification-groups/notification-groups.store.js'
import { InternalError } from '../errors.js'
import type { Workflow } from '../workflow-model/workflows.types.js'

const EPOCH = Date.parse('2024-10-01T09:00:00.000Z')
const time = (id: string) => Number.parseInt(id.slice(0, 8), 16)

test('ids made after skipPast have a later time part than the id skipped past', () => {
  const newId = createIdFactory(createRng('s'), EPOCH)
  const seen = '7000000000000000000000aa'
  newId.skipPast(seen)
  const next = newId()
  expect(time(next)).toBe(time(seen) + 1)
})

test('skipPast never moves the time part back', () => {
  const newId = createIdFactory(createRng('s'), EPOCH)
  newId.skipPast('7000000000000000000000aa')
  newId.skipPast('66000000000000000000000a')
  expect(time(newId())).toBe(0x70000001)
})

test('a generator restarted from the same seed makes different ids once it skips past the old ones', () => {
  const first = createIdFactory(createRng('same'), EPOCH)
  const old = Array.from({ length: 5 }, () => first())
  const again = createIdFactory(createRng('same'), EPOCH)
  for (const id of old) again.skipPast(id)
  const fresh = Array.from({ length: 5 }, () => again())
  for (const id of fresh) expect(old).not.toContain(id)
})

test('skipPast ignores what is not an ObjectId', () => {
  const newId = createIdFactory(createRng('s'), EPOCH)
  newId.skipPast('ffffffff')
  newId.skipPast('not-an-id-but-24-chars!!')
  expect(time(newId())).toBe(Math.floor(EPOCH / 1000))
})

test('the workflow store refuses a second workflow with a stored id and keeps the first', () => {
  const first = { _id: 'a'.repeat(24), name: 'First', triggers: [] } as unknown as Workflow
  const store = createWorkflowStore([first])
  const second = { ...first, name: 'Second' } as Workflow
  expect(() => store.add(second)).toThrow(InternalError)
  expect(store.all()).toEqual([first])
})

test('the group store refuses a second group with a stored id and keeps the first', () => {
  const group = {
    _id: 'b'.repeat(24),
    name: 'General',
    _environmentId: 'e',
    _organizationId: 'o',
    createdAt: '',
    updatedAt: '',
    __v: 0,
  }
  const store = createNotificationGroupStore([group])
  expect(() => store.add({ ...group, name: 'Other' })).toThrow(InternalError)
  expect(store.get(group._id)?.name).toBe('General')
})
