import { readFileSync } from 'node:fs'
import { expect, onTestFinished, test } from 'vitest'
import { startMock } from '../src/server.js'

// The README's "Webhooks" example is test/webhook-handler.test.ts, which the suite runs: the
// README must show it as it stands.

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

test('the README shows test/webhook-handler.test.ts as it stands', () => {
  const section = read('../README.md').split('## Webhooks\n')[1]?.split('\n## ')[0] ?? ''
  const shown = [...section.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((text) => text?.startsWith('// test/webhook-handler.test.ts'))
  expect(shown).toBe(read('./webhook-handler.test.ts'))
})

test("the README's curl that adds an endpoint answers what it says", async () => {
  const section = read('../README.md').split('## Webhooks\n')[1]?.split('\n## ')[0] ?? ''
  const [, url, body, status, shape] =
    /^curl -X POST '([^']+)' -H 'Content-Type: application\/json' -d '([^']+)'\n# → (\d{3}) (.*)$/m.exec(
      section
    ) ?? []
  const mock = await startMock({ port: 0, logLevel: 'silent' })
  onTestFinished(() => mock.close())
  const res = await fetch((url ?? '').replace('http://127.0.0.1:4000', mock.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body ?? '',
  })
  expect(res.status).toBe(Number(status))
  const text = await res.text()
  let at = 0
  for (const piece of (shape ?? '').split('…').filter(Boolean)) {
    const found = text.indexOf(piece, at)
    expect(found, `${piece} in ${text}`).toBeGreaterThanOrEqual(at)
    at = found + piece.length
  }
})
