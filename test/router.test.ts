// The app names Hono's trie router (src/app.ts) because its default, SmartRouter, settles on it
// for this route table at the first request, after building a RegExpRouter that cannot hold it.
// Should the table one day fit a RegExpRouter, the default would serve reads faster: this fails
// then, so that the choice is made again.
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

const routes = () => createMock({ logLevel: 'silent' }).app.routes

test("the route table is one Hono's RegExpRouter cannot hold", () => {
  const router = new RegExpRouter<string>()
  expect(() => {
    for (const { method, path } of routes()) router.add(method, path, path)
    router.match('GET', '/v1/topics')
  }).toThrow(/\/v1\//)
})

test("Hono's default router settles on the trie router for the route table", () => {
  const router = new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] })
  for (const { method, path } of routes()) router.add(method, path, path)
  router.match('GET', '/v1/topics')
  expect(router.activeRouter).toBeInstanceOf(TrieRouter)
})

test('serves a path with and without its trailing slash, and a parameter after a static sibling', async () => {
  const { app } = createMock({ logLevel: 'silent', apiGeneration: '2024-10' })
  const plain = await request(app, 'GET', '/v1/topics')
  const slashed = await request(app, 'GET', '/v1/topics/')
  expect(plain.status).toBe(200)
  expect(slashed.text).toBe(plain.text)
  const message = await request(app, 'GET', '/v1/messages/000000000000000000000000')
  expect(message.status).toBe(404)
  expect(message.body.message).toMatch(/message/i)
})
