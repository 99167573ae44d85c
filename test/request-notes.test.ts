import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMock, startMock, type RunningMock } from '../src/index.js'
import { createLogger } from '../src/log.js'
import { request, type Requestable } from './helpers.js'

// Where the mock, as upstream does, drops or changes what a client sent, the request's journal
// entry (`notes`) and the info log say so, naming the field and the fix.

const GENERAL_GROUP = '66fbb0a0c1f2e3d4a5b60001'

/** A mock whose log lines (info, or debug too) are kept, in the given generation. */
function mockWithLog(apiGeneration?: '2024-10' | '2026-08', level: 'info' | 'debug' = 'info') {
  const lines: string[] = []
  const mock = createMock({
    seed: 'notes',
    logLevel: 'silent',
    ...(apiGeneration ? { apiGeneration } : {}),
  })
  mock.state.logger = createLogger(level, (line) => lines.push(line) > 0)
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  return { app: mock.app, logged }
}

/** The notes of the newest journal entry of a path. */
async function notesOf(app: Requestable, path: string): Promise<string[] | undefined> {
  const journal = await request(app, 'GET', `/__admin/requests?path=${encodeURIComponent(path)}`)
  return (journal.body.data[0] as { notes?: string[] }).notes
}

/** The `receipt` workflow, written with one email step whose HTML body has this editorType. */
const receipt = (app: Requestable, editorType: string, method = 'POST') =>
  request(app, method, method === 'POST' ? '/v2/workflows' : '/v2/workflows/receipt', {
    body: {
      name: 'Receipt',
      ...(method === 'POST' ? { workflowId: 'receipt' } : { origin: 'external' }),
      steps: [
        {
          name: 'Mail',
          type: 'email',
          controlValues: { subject: 'Order shipped', body: '<p>Thanks</p>', editorType },
        },
      ],
    },
  })

test('a v2 create whose workflowId a seeded workflow holds is noted with the name it got', async () => {
  const { app, logged } = mockWithLog()
  const res = await request(app, 'POST', '/v2/workflows', {
    body: { name: 'Order Shipped', workflowId: 'order-shipped', steps: [] },
  })
  expect(res.status).toBe(201)
  const given = res.body.data.workflowId as string
  expect(given).toMatch(/^order-shipped-[a-z0-9]{8}$/)
  const [note] = (await notesOf(app, '/v2/workflows')) ?? []
  expect(note).toContain('workflowId "order-shipped" is taken')
  expect(note).toContain(`created as "${given}"`)
  expect(note).toContain('empty scenario')
  expect(logged()).toContainEqual(
    expect.objectContaining({ level: 'info', msg: note, method: 'POST', path: '/v2/workflows' })
  )
})

test('a v2 create with a free workflowId leaves no note', async () => {
  const { app, logged } = mockWithLog()
  const res = await request(app, 'POST', '/v2/workflows', {
    body: { name: 'Parcel', workflowId: 'parcel', steps: [] },
  })
  expect(res.status).toBe(201)
  expect(await notesOf(app, '/v2/workflows')).toBeUndefined()
  expect(logged()).toEqual([])
})

test.each(['2024-10', '2026-08'] as const)(
  'a v1 create whose name slugs to a seeded identifier is noted with the identifier it got (%s)',
  async (apiGeneration) => {
    const { app } = mockWithLog(apiGeneration)
    const res = await request(app, 'POST', '/v1/workflows', {
      body: { name: 'Welcome Email', notificationGroupId: GENERAL_GROUP, steps: [] },
    })
    expect(res.status).toBe(201)
    const given = res.body.data.triggers[0].identifier as string
    expect(given).not.toBe('welcome-email')
    const [note] = (await notesOf(app, '/v1/workflows')) ?? []
    expect(note).toContain('The name "Welcome Email" gives the trigger identifier "welcome-email"')
    expect(note).toContain(`identifier is "${given}"`)
  }
)

/** Creates "Welcome Email" through /v1 (its identifier is seeded) with this key; the identifier it got. */
async function createWelcome(app: Requestable, key?: string): Promise<string> {
  const res = await request(app, 'POST', '/v1/workflows', {
    ...(key ? { key } : {}),
    body: { name: 'Welcome Email', notificationGroupId: GENERAL_GROUP, steps: [] },
  })
  expect(res.status).toBe(201)
  return res.body.data.triggers[0].identifier as string
}

/** The log lines of one path whose message starts so, as [level, message]. */
const linesOf = (lines: Record<string, unknown>[], start: string) =>
  lines
    .filter((line) => String(line.msg).startsWith(start))
    .map((line) => [line.level, line.msg] as const)

test.each(['2024-10', '2026-08'] as const)(
  'advice an environment gave before goes to the debug log, and every journal entry keeps it (%s)',
  async (generation) => {
    const { app, logged } = mockWithLog(generation, 'debug')
    const first = await createWelcome(app)
    const second = await createWelcome(app)
    expect(second).not.toBe(first)
    const lines = linesOf(logged(), 'The name "Welcome Email"')
    expect(lines.map(([level]) => level)).toEqual(['info', 'debug'])
    expect(lines[0]?.[1]).toContain(`identifier is "${first}"`)
    expect(lines[1]?.[1]).toContain(`identifier is "${second}"`)
    const journal = await request(app, 'GET', '/__admin/requests?path=%2Fv1%2Fworkflows')
    const notes = (journal.body.data as { notes?: string[] }[]).map((entry) => entry.notes?.[0])
    expect(notes).toEqual([
      expect.stringContaining(`identifier is "${second}"`),
      expect.stringContaining(`identifier is "${first}"`),
    ])
  }
)

test('the same advice in another environment is logged at info level again', async () => {
  const { app, logged } = mockWithLog()
  await createWelcome(app, 'advice-key-first')
  await createWelcome(app, 'advice-key-first')
  await createWelcome(app, 'advice-key-second')
  expect(linesOf(logged(), 'The name "Welcome Email"').map(([level]) => level)).toEqual([
    'info',
    'info',
  ])
  expect(new Set(logged().map((line) => line.apiKey)).size).toBe(2)
})

test('a reset forgets the advice given: the next collision is logged at info level', async () => {
  const { app, logged } = mockWithLog()
  await createWelcome(app)
  await createWelcome(app)
  expect(linesOf(logged(), 'The name "Welcome Email"')).toHaveLength(1)
  expect((await request(app, 'POST', '/__admin/reset')).status).toBe(200)
  await createWelcome(app)
  expect(linesOf(logged(), 'The name "Welcome Email"')).toHaveLength(2)
})

test('a v2 workflowId taken again is logged at info level once', async () => {
  const { app, logged } = mockWithLog()
  for (let i = 0; i < 3; i++) {
    const res = await request(app, 'POST', '/v2/workflows', {
      body: { name: 'Order Shipped', workflowId: 'order-shipped', steps: [] },
    })
    expect(res.status).toBe(201)
  }
  expect(linesOf(logged(), 'workflowId "order-shipped" is taken')).toHaveLength(1)
  const journal = await request(app, 'GET', '/__admin/requests?path=%2Fv2%2Fworkflows')
  expect((journal.body.data as { notes?: string[] }[]).map((e) => e.notes?.length)).toEqual([
    1, 1, 1,
  ])
})

test('an HTML email body under the block editor is noted as emptied, with the editorType to send', async () => {
  const { app, logged } = mockWithLog()
  const res = await receipt(app, 'block')
  expect(res.status).toBe(201)
  const [note] = (await notesOf(app, '/v2/workflows')) ?? []
  expect(note).toContain('steps[0].controlValues.body was stored empty')
  expect(note).toContain('editorType: "html"')
  expect(logged().map((line) => line.msg)).toContain(note)
})

test('the same HTML body replaced through PUT is noted too', async () => {
  const { app } = mockWithLog()
  await request(app, 'POST', '/v2/workflows', {
    body: { name: 'Receipt', workflowId: 'receipt', steps: [] },
  })
  const res = await receipt(app, 'block', 'PUT')
  expect(res.status).toBe(200)
  expect((await notesOf(app, '/v2/workflows/receipt'))?.[0]).toContain(
    'steps[0].controlValues.body was stored empty'
  )
})

test('an HTML email body sent with editorType html is kept and leaves no note', async () => {
  const { app } = mockWithLog()
  const res = await receipt(app, 'html')
  expect(res.status).toBe(201)
  expect(await notesOf(app, '/v2/workflows')).toBeUndefined()
})

test('unknown top-level body fields are noted as ignored, by name', async () => {
  const { app } = mockWithLog()
  const res = await request(app, 'POST', '/v1/topics', {
    body: { key: 'news', name: 'News', subscriberz: ['a'] },
  })
  expect(res.status).toBe(201)
  expect(await notesOf(app, '/v1/topics')).toEqual([
    'Unknown body field "subscriberz" ignored: POST /v1/topics takes no such field, and Novu ignores unknown fields too. Check the name against the API reference.',
  ])
})

test('a body of thousands of unknown fields gives one bounded note', async () => {
  const { app } = mockWithLog()
  const body: Record<string, unknown> = { name: 'Mail', workflowId: 'mail', steps: [] }
  for (let i = 0; i < 5000; i++) body[`extra${i}${'x'.repeat(200)}`] = i
  const res = await request(app, 'POST', '/v2/workflows', { body })
  expect(res.status).toBe(201)
  const notes = (await notesOf(app, '/v2/workflows')) ?? []
  expect(notes).toHaveLength(1)
  expect(notes[0]).toContain('and 4995 more ignored')
  expect(notes[0]).toContain('Check the name against the API reference.')
  expect(notes[0]?.length).toBeLessThan(600)
})

test('a JSON body sent as text/plain is not read, and the note says to send the JSON type', async () => {
  const { app } = mockWithLog()
  const res = await request(app, 'POST', '/v1/topics', {
    body: JSON.stringify({ key: 'news', name: 'News' }),
    headers: { 'Content-Type': 'text/plain' },
  })
  expect(res.status).toBe(422)
  expect(await notesOf(app, '/v1/topics')).toEqual([
    'The body was not read as JSON: its Content-Type is "text/plain", and Novu\'s body parser reads only application/json, so the body counted as empty. Send the header Content-Type: application/json.',
  ])
})

let running: RunningMock
beforeAll(async () => {
  running = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => running.close())

/** A POST over a socket with exactly these headers (fetch would add a Content-Type). */
function rawPost(path: string, body: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${running.url}${path}`, { method: 'POST', headers }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

test('a POST without Content-Type answers as an empty body would, and the note says why', async () => {
  const body = JSON.stringify({ key: 'news', name: 'News' })
  const status = await rawPost('/v1/topics', body, {
    Authorization: 'ApiKey no-type',
    'Content-Length': String(Buffer.byteLength(body)),
  })
  expect(status).toBe(422)
  const [entry] = await running.admin.requests({ apiKey: 'no-type', path: '/v1/topics' })
  expect(entry?.notes).toEqual([expect.stringContaining('the request has no Content-Type header')])
  expect(entry?.body).toBe(undefined)
})

test('a POST without a body and without Content-Type leaves no note', async () => {
  const status = await rawPost('/v1/topics', '', {
    Authorization: 'ApiKey no-body',
    'Content-Length': '0',
  })
  expect(status).toBe(422)
  const [entry] = await running.admin.requests({ apiKey: 'no-body', path: '/v1/topics' })
  expect(entry?.notes).toBeUndefined()
})
