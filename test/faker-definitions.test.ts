// The seeded faker keeps the English definitions its recipes read (src/fixtures/faker-definitions.ts)
// and the bundle ships those alone (scripts/bundle.mjs): both must pick exactly what faker's
// whole English locale picks, or seeded data would change between releases and builds.
import { en, base, Faker } from '@faker-js/faker'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { CHANNELS } from '../src/channels.js'
import { createFaker, loadFaker } from '../src/fixtures/faker.js'
import {
  buildGroupName,
  buildMessageContent,
  buildSubscriber,
  buildTopicRecord,
  buildWorkflowRecord,
} from '../src/fixtures/factories.js'
import { createMock } from '../src/mock.js'

/** Every recipe, in turn, as seeding calls them. */
function recipes(faker: Faker) {
  const out: unknown[] = []
  for (let i = 0; i < 40; i++) {
    out.push(buildGroupName(faker), buildSubscriber(faker))
    out.push(buildTopicRecord(faker, i, ['a', 'b', 'c', 'd', 'e']), buildWorkflowRecord(faker))
    for (const channel of CHANNELS) out.push(buildMessageContent(faker, channel, 'Ann'))
    out.push(faker.string.uuid())
  }
  return out
}

test('gives the recipes the same values as faker with its whole English locale', async () => {
  await loadFaker()
  const whole = new Faker({ locale: [en, base] })
  whole.seed(20261127)
  expect(recipes(createFaker(20261127))).toEqual(recipes(whole))
})

test('refuses a recipe that reads English data the seeded faker does not keep', async () => {
  await loadFaker()
  expect(() => createFaker(1).music.genre()).toThrow(/music\.genre/)
})

test('exports the same seeded environment from the built bundle as from the sources, in both generations', async () => {
  const library = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href
  const { createMock: builtMock } = (await import(library)) as { createMock: typeof createMock }
  await loadFaker()
  for (const apiGeneration of ['2026-08', '2024-10'] as const) {
    const exported = async (mock: ReturnType<typeof createMock>) => {
      // The bundle loads its own faker: its first environment waits for it.
      await mock.app.request('/v1/topics', { headers: { Authorization: 'ApiKey same' } })
      const res = await mock.app.request('/__admin/state?apiKey=same')
      expect(res.status).toBe(200)
      return res.text()
    }
    const built = await exported(builtMock({ apiGeneration, seed: 'bundle' }))
    expect(built).toBe(await exported(createMock({ apiGeneration, seed: 'bundle' })))
    expect(JSON.parse(built).topics.length).toBeGreaterThan(20)
  }
})
