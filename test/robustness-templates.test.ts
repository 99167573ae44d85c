// Issue #9, findings 1, 2 and 6: one create request must neither stall the event loop nor hold
// memory past its answer, whatever templates it carries. Each test builds its large body here.
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { TEMPLATE_LIMITS } from '../src/resources/workflows/handlebars-limits.js'
import { tokensLexed } from '../src/resources/workflows/handlebars-parse.js'
import { cacheUsage, CACHE_LIMITS } from '../src/resources/workflows/handlebars-variables-cache.js'
import { nodesWalked } from '../src/resources/workflows/handlebars-variables.js'
import { EDITOR_LIMITS, elementsOpened } from '../src/workflow-model/sanitize.js'
import { request, type TestResponse } from './helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'

type Obj = Record<string, unknown>
/** An answer, and the work it took: Handlebars tokens lexed, AST nodes walked, HTML elements opened. */
type Counted = TestResponse & { lexed: number; walked: number; opened: number }

/** Creates a workflow with one step per template, in the generation whose 400s the facts fix. */
async function create(...templates: Obj[]): Promise<Counted> {
  const { app } = createMock({ seed: 'test', apiGeneration: '2024-10', logLevel: 'silent' })
  const steps = templates.map((template) => ({ name: 'Step', template }))
  // The environment's own workflows are built first: their templates are not this request's work.
  await request(app, 'GET', '/v1/workflows')
  const [lexed, walked, opened] = [tokensLexed(), nodesWalked(), elementsOpened()]
  const res = await request(app, 'POST', '/v1/workflows', {
    body: { name: 'Robust', notificationGroupId: GENERAL, steps },
  })
  return {
    ...res,
    lexed: tokensLexed() - lexed,
    walked: nodesWalked() - walked,
    opened: elementsOpened() - opened,
  }
}

function expectRefused(res: TestResponse, message: string | RegExp) {
  expect(res.status).toBe(400)
  expect(res.body.statusCode).toBe(400)
  expect(res.body.message).toMatch(message)
}

const inApp = (content: unknown) => ({ type: 'in_app', content })
const editor = (content: unknown) => ({
  type: 'email',
  contentType: 'editor',
  subject: 's',
  content,
})
const nestedEach = (depth: number, name: string) =>
  `{{#each ${name}}}`.repeat(depth) + '{{x}}' + '{{/each}}'.repeat(depth)

/** A Handlebars Program as a client could send it: each block's body holds the next block. */
function eachAst(depth: number, name: string): Obj {
  let program: Obj = { type: 'Program', body: [] }
  for (let i = 0; i < depth; i++) {
    const block = {
      type: 'BlockStatement',
      path: { original: 'each' },
      params: [{ original: name }],
    }
    program = { type: 'Program', body: [{ ...block, program }] }
  }
  return program
}

const TOO_DEEP = /^Failed to extract variables: .*deeper than 100 levels \(novu-mock's limit\)$/
const TOO_LONG = /^Failed to extract variables: the templates are longer than 2,097,152 characters/
const TOO_MANY_TOKENS = /^Failed to extract variables: .*more than 100,000 Handlebars tokens/
const NAMES_TOO_LONG = /^Failed to extract variables: the variable names are longer than 1,000,000/

// Finding 1: variable names grow with the square of the nesting.

test('refuses 500 nested each blocks with 4,000-character names (2 MB) at the first block past the depth limit, naming it', async () => {
  const res = await create(inApp(nestedEach(500, 'n'.repeat(4000))))
  expectRefused(res, TOO_DEEP)
  // Fewer tokens than the whole of a text nested to the limit: the parse stopped past the limit.
  const atLimit = await create(inApp(nestedEach(TEMPLATE_LIMITS.depth, 'm')))
  expect(atLimit.status).toBe(201)
  expect(res.lexed).toBeGreaterThan(0)
  expect(res.lexed).toBeLessThan(atLimit.lexed)
})

test('refuses 19.5 MB of nested each blocks without parsing them, naming the template length limit', async () => {
  const res = await create(inApp(nestedEach(500, 'n'.repeat(38_000))))
  expectRefused(res, TOO_LONG)
  expect(res.lexed).toBe(0)
})

test('refuses nested blocks whose variable names add up to over 1,000,000 characters', async () => {
  expectRefused(await create(inApp(nestedEach(90, 'n'.repeat(300)))), NAMES_TOO_LONG)
})

test('names a variable after every enclosing block, 100 blocks deep', async () => {
  const res = await create(inApp(nestedEach(100, 'item')))
  expect(res.status).toBe(201)
  const names = res.body.data.triggers[0].variables.map((v: { name: string }) => v.name)
  expect(names).toContain(`${'item.'.repeat(100)}x`)
})

test.each([
  { shape: 'blocks', content: '{{#if a}}'.repeat(101) + '{{/if}}'.repeat(101) },
  { shape: 'else-if links', content: `{{#if a}}${'{{else if b}}'.repeat(100)}{{/if}}` },
  { shape: 'subexpressions', content: `{{a ${'(b '.repeat(101)}${')'.repeat(101)}}}` },
])('refuses $shape nested past 100 levels, naming the depth limit', async ({ content }) => {
  expectRefused(await create(inApp(content)), TOO_DEEP)
})

test('extracts 600 blocks in a row, as upstream does', async () => {
  const res = await create(inApp('{{#if flag}}x{{/if}}'.repeat(600)))
  expect(res.status).toBe(201)
  expect(res.body.data.triggers[0].variables).toMatchObject([{ name: 'flag', type: 'Boolean' }])
})

test('still answers a template Handlebars cannot parse with upstream\'s "Failed to extract variables"', async () => {
  const res = await create(inApp(`${'{{a}}'.repeat(1000)}{{#if`))
  expect(res.status).toBe(400)
  expect(res.body.message).toBe('Failed to extract variables')
})

// Finding 1: a Handlebars AST sent as an object skips the parser, not the limits.

test('extracts the variables of a Handlebars Program sent as the content, as upstream does', async () => {
  const res = await create(inApp(eachAst(2, 'rows')))
  expect(res.status).toBe(201)
  expect(res.body.data.triggers[0].variables).toMatchObject([
    { name: 'rows', type: 'Array' },
    { name: 'rows.rows', type: 'Array' },
  ])
})

test('refuses a 3 MB Program of nested each blocks with long names, naming the limit', async () => {
  expectRefused(await create(inApp(eachAst(500, 'n'.repeat(6000)))), NAMES_TOO_LONG)
})

test('answers 500, as MongoDB makes upstream do, to a Program nesting 500 blocks, walking no deeper than the depth limit', async () => {
  const res = await create(inApp(eachAst(500, 'n')))
  expect(res.status).toBe(500)
  expect(res.walked).toBeGreaterThan(0)
  expect(res.walked).toBeLessThanOrEqual(TEMPLATE_LIMITS.depth + 1)
})

test('counts the nodes of a Program against the token limit', async () => {
  const body = Array.from({ length: 100_001 }, () => ({ type: 'ContentStatement', value: 'x' }))
  expectRefused(await create(inApp({ type: 'Program', body })), TOO_MANY_TOKENS)
})

// Finding 2: the cache of extracted texts.

test('keeps no refused text in the cache', async () => {
  const before = cacheUsage()
  for (let i = 0; i < 20; i++) {
    const res = await create(inApp(`${i}${'x'.repeat(1_000_000)}{{#if`))
    expect(res.status).toBe(400)
  }
  expect(cacheUsage()).toEqual(before)
})

test('holds the cache under its entry limit', async () => {
  const blocks = Array.from({ length: CACHE_LIMITS.entries + 100 }, (_, i) => ({
    type: 'text',
    content: `{{v${i}}}`,
  }))
  const res = await create({ type: 'email', subject: 's', content: blocks })
  expect(res.status).toBe(201)
  expect(cacheUsage().entries).toBeLessThanOrEqual(CACHE_LIMITS.entries)
})

test('holds the cache under its byte limit', async () => {
  for (let i = 0; i < 12; i++) {
    const res = await create(inApp(`{{v${i}}}${'x'.repeat(1_900_000)}`))
    expect(res.status).toBe(201)
  }
  expect(cacheUsage().bytes).toBeLessThanOrEqual(CACHE_LIMITS.bytes)
})

// Finding 6: CPU stalls.

test('refuses 400,000 nested divs of editor content before parsing or sanitising them', async () => {
  const html = '<div>'.repeat(400_000) + '</div>'.repeat(400_000)
  const res = await create(editor(html))
  expectRefused(res, TOO_LONG)
  expect(res.lexed + res.opened).toBe(0)
})

test('stops sanitising 200,000 unclosed divs at 256 levels', async () => {
  const res = await create(editor('<div>'.repeat(200_000)))
  expectRefused(
    res,
    "Editor content nests HTML elements deeper than 256 levels (novu-mock's limit)"
  )
  expect(res.opened).toBe(EDITOR_LIMITS.depth + 1)
})

test('sanitises editor content nested 256 levels deep', async () => {
  const res = await create(editor('<div>'.repeat(256) + 'x' + '</div>'.repeat(256)))
  expect(res.status).toBe(201)
})

test('refuses editor content nested 257 levels deep, naming the limit', async () => {
  const res = await create(editor('<div>'.repeat(257) + 'x' + '</div>'.repeat(257)))
  expectRefused(res, /deeper than 256 levels/)
})

test('refuses more than 1 MiB of editor content, naming the limit', async () => {
  const html = '<p>x</p>'.repeat(140_000)
  expectRefused(
    await create(editor([{ type: 'text', content: html }])),
    "Editor content is longer than 1,048,576 characters (novu-mock's limit)"
  )
})

test('refuses 19 MB of {{a}} without parsing it, naming the template length limit', async () => {
  const res = await create(inApp('{{a}}'.repeat(3_800_000)))
  expectRefused(res, TOO_LONG)
  expect(res.lexed).toBe(0)
})

test('refuses 2 MB of {{a}} at the token limit, naming it', async () => {
  const res = await create(inApp('{{a}}'.repeat(400_000)))
  expectRefused(res, TOO_MANY_TOKENS)
  expect(res.lexed).toBe(TEMPLATE_LIMITS.tokens + 1)
})

test('counts the texts of every step against one budget per request', async () => {
  const text = '{{a}}'.repeat(20_000)
  const res = await create(...Array.from({ length: 6 }, () => inApp(text)))
  expectRefused(res, TOO_MANY_TOKENS)
})

test('answers a request the same whether or not its texts were extracted before', async () => {
  const text = '{{c}}'.repeat(20_000)
  const first = await create(...Array.from({ length: 6 }, () => inApp(text)))
  const again = await create(...Array.from({ length: 6 }, () => inApp(text)))
  expect(again.status).toBe(first.status)
  expect(again.body.message).toBe(first.body.message)
})

test('editor content is capped across the steps of one request before any is sanitised', async () => {
  const html = '<p>' + 'x'.repeat(400_000) + '</p>'
  const res = await create(editor(html), editor(html), editor(html))
  expectRefused(res, /^Editor content is longer than 1,048,576 characters/)
})
