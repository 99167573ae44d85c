// Handlebars, liquidjs and the sanitiser are loaded by the first render that needs them
// (src/delivery/languages/simple-render.ts, simple-liquid.ts, src/delivery/bridge-html.ts): a
// trigger whose texts are content and {{names}} renders without them. Each test runs the built
// library in a fresh process, the only place where what was loaded can be seen.
import { execFile } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'

const LIBRARY = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href

interface Outcome {
  /** The in-app message's content. */
  content?: string
  /** What the steps put in `shown`. */
  shown?: unknown
  /** Which of the libraries rendering loads on demand the process holds afterwards. */
  loaded: string[]
}

/**
 * Runs `steps` (which call the API with `call(method, path, body)` and may set `shown`) on a
 * fresh mock of this generation; the content of the first in-app message, and what was loaded.
 */
async function inFreshProcess(generation: string, steps: string): Promise<Outcome> {
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
    let shown
    ${steps}
    const messages = await call('GET', '/v1/messages?channel=in_app')
    const files = Object.keys(createRequire(import.meta.url).cache)
    console.log(JSON.stringify({
      content: messages.data[0]?.content,
      shown,
      loaded: ['handlebars', 'liquidjs', 'sanitize-html'].filter((name) =>
        files.some((file) => file.includes('/node_modules/' + name + '/'))
      ),
    }))
    await mock.close()
  `
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { timeout: 30_000 }
  )
  return JSON.parse(stdout) as Outcome
}

/** Triggers a workflow of one in-app step with this content. */
const triggerIn = (content: string, generation = '2026-08') =>
  inFreshProcess(
    generation,
    `
    await call('POST', '/v1/subscribers', { subscriberId: 'ada', firstName: 'Ada' })
    const created = await call('POST', '/v1/workflows', {
      name: 'Shipped', active: true, notificationGroupId: (await call('GET', '/v1/notification-groups')).data[0]._id,
      steps: [{ template: { type: 'in_app', content: ${JSON.stringify(content)} } }],
    })
    await call('POST', '/v1/events/trigger', {
      name: created.data.triggers[0].identifier, to: 'ada', payload: { order: 'A&1' },
    })`
  )

/** Triggers a v2 (dashboard) workflow of one in-app step with this body and order. */
const triggerV2In = (body: string, order: string) =>
  inFreshProcess(
    '2026-08',
    `
    await call('POST', '/v2/subscribers', { subscriberId: 'ada', firstName: 'Ada' })
    await call('POST', '/v2/workflows', {
      name: 'Shipped', workflowId: 'shipped',
      steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: ${JSON.stringify(body)} } }],
    })
    await call('POST', '/v1/events/trigger', {
      name: 'shipped', to: 'ada', payload: { order: ${JSON.stringify(order)} },
    })`
  )

test.each(['2024-10', '2026-08'])(
  'a trigger whose texts are content and {{names}} renders without loading Handlebars (%s)',
  async (generation) => {
    expect(
      await triggerIn('Hi {{subscriber.firstName}}, order {{order}} shipped', generation)
    ).toEqual({ content: 'Hi Ada, order A&amp;1 shipped', loaded: [] })
  }
)

test('a trigger whose text calls a helper loads Handlebars and renders with it', async () => {
  expect(await triggerIn('Hi {{uppercase subscriber.firstName}}')).toEqual({
    content: 'Hi ADA',
    loaded: ['handlebars'],
  })
})

const SIMPLE_V2 = 'Hi {{ subscriber.firstName }}, order {{payload.order}} shipped'

test('a v2 in-app text of words and {{ names }} renders without liquidjs or the sanitiser', async () => {
  expect(await triggerV2In(SIMPLE_V2, 'A-"1')).toEqual({
    content: 'Hi Ada, order A-"1 shipped',
    loaded: [],
  })
})

test('a v2 in-app text with an ampersand is sanitised by sanitize-html', async () => {
  expect(await triggerV2In(SIMPLE_V2, 'A&"1')).toEqual({
    content: 'Hi Ada, order A&amp;"1 shipped',
    loaded: ['sanitize-html'],
  })
})

test('a v2 trigger whose text has a filter loads liquidjs and renders with it', async () => {
  expect(await triggerV2In('Hi {{ subscriber.firstName | upcase }}', 'A1')).toEqual({
    content: 'Hi ADA',
    loaded: ['liquidjs'],
  })
})

test('a v1 email step of editor text blocks is stored without loading the sanitiser', async () => {
  const blocks = [{ type: 'text', content: 'Hello {{firstName}}, "{{orderId}}" shipped' }]
  const created = await inFreshProcess(
    '2024-10',
    `
    const created = await call('POST', '/v1/workflows', {
      name: 'Shipped', notificationGroupId: (await call('GET', '/v1/notification-groups')).data[0]._id,
      steps: [{ template: { type: 'email', subject: 'Shipped', contentType: 'editor', content: ${JSON.stringify(blocks)} } }],
    })
    shown = created.data.steps[0].template.content`
  )
  expect(created).toEqual({ shown: blocks, loaded: [] })
})
