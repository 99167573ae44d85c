// Handlebars is loaded by the first render that needs it (src/delivery/languages/simple-render.ts):
// a trigger whose texts are content and {{names}} renders without it. Each test runs the built
// library in a fresh process, the only place where what was loaded can be seen.
import { execFile } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'

const LIBRARY = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href

/** Triggers a workflow of one in-app step with this content; the message and what was loaded. */
async function triggerIn(content: string, generation = '2026-08') {
  const script = `
    import { createRequire } from 'node:module'
    import { startMock } from ${JSON.stringify(LIBRARY)}
    const mock = await startMock({
      port: 0, scenario: 'empty', logLevel: 'silent', apiGeneration: ${JSON.stringify(generation)},
    })
    const call = async (method, path, body) => {
      const res = await fetch(mock.url + path, {
        method,
        headers: { Authorization: 'ApiKey render-loading', 'Content-Type': 'application/json' },
        body: body && JSON.stringify(body),
      })
      return res.json()
    }
    await call('POST', '/v1/subscribers', { subscriberId: 'ada', firstName: 'Ada' })
    const created = await call('POST', '/v1/workflows', {
      name: 'Shipped', active: true, notificationGroupId: (await call('GET', '/v1/notification-groups')).data[0]._id,
      steps: [{ template: { type: 'in_app', content: ${JSON.stringify(content)} } }],
    })
    await call('POST', '/v1/events/trigger', {
      name: created.data.triggers[0].identifier, to: 'ada', payload: { order: 'A&1' },
    })
    const messages = await call('GET', '/v1/messages?channel=in_app')
    const loaded = Object.keys(createRequire(import.meta.url).cache)
    console.log(JSON.stringify({
      content: messages.data[0]?.content,
      handlebars: loaded.some((file) => file.includes('handlebars')),
    }))
    await mock.close()
  `
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { timeout: 30_000 }
  )
  return JSON.parse(stdout) as { content?: string; handlebars: boolean }
}

test.each(['2024-10', '2026-08'])(
  'a trigger whose texts are content and {{names}} renders without loading Handlebars (%s)',
  async (generation) => {
    expect(
      await triggerIn('Hi {{subscriber.firstName}}, order {{order}} shipped', generation)
    ).toEqual({
      content: 'Hi Ada, order A&amp;1 shipped',
      handlebars: false,
    })
  }
)

test('a trigger whose text calls a helper loads Handlebars and renders with it', async () => {
  expect(await triggerIn('Hi {{uppercase subscriber.firstName}}')).toEqual({
    content: 'Hi ADA',
    handlebars: true,
  })
})
