import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

const admin = { key: null }
const SECRET = 'TOPSECRET-7f3a'
const options = { apiGeneration: '2024-10', logLevel: 'silent' } as const

/** A scenarios folder with one valid scenario, and a folder beside it that is not for scenarios. */
function makeFolders() {
  const root = mkdtempSync(join(tmpdir(), 'novu-mock-links-'))
  const dir = mkdtempSync(join(root, 'scenarios-'))
  const outside = mkdtempSync(join(root, 'private-'))
  writeFileSync(join(dir, 'mine.json'), JSON.stringify({ name: 'mine' }))
  return { dir, outside }
}

test('a symlink in the scenarios folder that leaves it is neither listed nor loaded', async () => {
  const { dir, outside } = makeFolders()
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ name: 'secret', password: SECRET }))
  symlinkSync(join(outside, 'secret.json'), join(dir, 'secret.json'))
  symlinkSync('/etc/passwd', join(dir, 'passwd.yaml'))
  const { app } = createMock({ ...options, scenariosDir: dir })

  const listed = await request(app, 'GET', '/__admin/scenarios', admin)
  const names = listed.body.data.map((s: { name: string }) => s.name)
  expect(names).toContain('mine')
  expect(names).not.toContain('secret')
  expect(names).not.toContain('passwd')
  for (const name of ['secret', 'passwd']) {
    const res = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { name } })
    expect(res.status).toBe(404)
    expect(res.text).not.toContain(SECRET)
    expect(res.text).not.toContain('root:')
  }
})

test('a symlink that stays inside the scenarios folder loads the file it points to', async () => {
  const { dir } = makeFolders()
  mkdirSync(join(dir, 'kept'))
  writeFileSync(join(dir, 'kept', 'alias.json'), JSON.stringify({ name: 'alias' }))
  symlinkSync(join(dir, 'kept', 'alias.json'), join(dir, 'alias.json'))
  const { app } = createMock({ ...options, scenariosDir: dir })
  const res = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { name: 'alias' } })
  expect(res.status).toBe(200)
  expect(res.body.data.name).toBe('alias')
})

test('a scenario file that is not JSON is reported by line and column, without its content', async () => {
  const { dir } = makeFolders()
  const { app } = createMock({ ...options, scenariosDir: dir })
  writeFileSync(join(dir, 'broken.json'), `root:x:0:0:${SECRET}:/root:/bin/bash\n`)
  const res = await request(app, 'POST', '/__admin/scenario', {
    ...admin,
    body: { name: 'broken' },
  })
  expect(res.status).toBe(400)
  expect(res.text).toContain('line 1, column 1')
  expect(res.text).not.toContain(SECRET)
  expect(res.text).not.toContain('root:x')
})

test('a JSON syntax error deep in a file names its line and column, without the text around it', async () => {
  const { dir } = makeFolders()
  const { app } = createMock({ ...options, scenariosDir: dir })
  writeFileSync(
    join(dir, 'typo.json'),
    `{\n  "name": "typo",\n  "description": "${SECRET}" oops\n}\n`
  )
  const res = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { name: 'typo' } })
  expect(res.status).toBe(400)
  expect(res.text).toMatch(/line 3, column \d+/)
  expect(res.text).not.toContain(SECRET)
})

test('a YAML syntax error names its line and column, without the line itself', async () => {
  const { dir } = makeFolders()
  const { app } = createMock({ ...options, scenariosDir: dir })
  writeFileSync(join(dir, 'quote.yaml'), `name: quote\ndescription: "${SECRET}\n`)
  const res = await request(app, 'POST', '/__admin/scenario', { ...admin, body: { name: 'quote' } })
  expect(res.status).toBe(400)
  expect(res.text).toMatch(/line \d+, column \d+/)
  expect(res.text).not.toContain(SECRET)
})

test('a start with a scenarios folder holding a broken file fails without quoting the file', () => {
  const { dir } = makeFolders()
  writeFileSync(join(dir, 'broken.json'), `root:x:0:0:${SECRET}:/root:/bin/bash\n`)
  let message = ''
  try {
    createMock({ ...options, scenariosDir: dir })
  } catch (error) {
    message = `${(error as Error).message} ${JSON.stringify(error)}`
  }
  expect(message).toContain('broken.json')
  expect(message).not.toContain(SECRET)
})
