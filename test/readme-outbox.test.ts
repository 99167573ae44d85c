import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

// The README's end-to-end example of the assertion API is test/order-email.test.ts, which the
// suite runs: the README must show it as it stands.

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

test('the README shows test/order-email.test.ts as it stands', () => {
  const section = read('../README.md').split('## Use in tests\n')[1]?.split('\n## ')[0] ?? ''
  const shown = [...section.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((text) => text?.startsWith('// test/order-email.test.ts'))
  expect(shown).toBe(read('./order-email.test.ts'))
})
