import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { createMock } from '../src/mock.js'
import { NOVU_ROUTES } from '../src/novu-routes.js'
import { generationNamed } from '../src/generations/index.js'
import { resolveFor } from '../src/generations/generation.js'
import { request } from './helpers.js'
import { GENERATIONS } from './trigger-helpers.js'

// Every route, sent bodies of wrong types and missing fields, answers only with messages the real
// service writes: zod's own texts ("Invalid input: expected string, received number") never
// reach a client, whichever property a schema forgot to map.

const ZOD_TEXT =
  /Invalid input|\bexpected\b|\breceived\b|Invalid option|Too (big|small)|Unrecognized key/i

const WRONG_VALUES: unknown[] = [5, 'x', true, null, [], {}, [{}], { a: { b: [1] } }, '\u0000']

/** The properties a route's body schema names, for the generation. */
function propertiesOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : []
}

/** Bodies that miss every field, or set every named property to one wrong value. */
function bodiesFor(properties: string[]): unknown[] {
  const bodies: unknown[] = [{}, [], 'text', 42]
  for (const value of WRONG_VALUES)
    bodies.push(Object.fromEntries(properties.map((name) => [name, value])))
  for (const name of properties) bodies.push({ [name]: 5 }, { [name]: { deep: [1] } })
  return bodies
}

const pathOf = (path: string) => path.replace(/:[A-Za-z]+/g, 'abc')

describe.each(GENERATIONS)('%s: every route answers bad bodies with upstream messages', (name) => {
  const generation = generationNamed(name)
  const routes = NOVU_ROUTES.filter((r) => !r.existsIn || r.existsIn(generation))

  test('no answer to a body of wrong types or missing fields carries zod text', async () => {
    const { app } = createMock({ apiGeneration: name, scenario: 'empty', seed: 'walk' })
    const leaks: string[] = []
    let answered = 0
    for (const route of routes) {
      if (route.method === 'GET') continue
      const schema = route.body ? resolveFor(route.body, generation) : undefined
      for (const body of bodiesFor(propertiesOf(schema as z.ZodType))) {
        const res = await request(app, route.method, pathOf(route.path), { body })
        answered++
        if (ZOD_TEXT.test(res.text)) leaks.push(`${route.method} ${route.path}: ${res.text}`)
      }
    }
    expect(answered).toBeGreaterThan(100)
    expect(leaks).toEqual([])
  })

  test('no answer to a query of wrong types carries zod text', async () => {
    const { app } = createMock({ apiGeneration: name, scenario: 'empty', seed: 'walk' })
    const leaks: string[] = []
    for (const route of routes) {
      const schema = route.query ? resolveFor(route.query, generation) : undefined
      for (const property of propertiesOf(schema as z.ZodType)) {
        for (const value of ['x', '-1', '1e400', '[]', '']) {
          const query = `?${property}=${encodeURIComponent(value)}&${property}[]=2`
          const res = await request(app, route.method, `${pathOf(route.path)}${query}`)
          if (ZOD_TEXT.test(res.text)) leaks.push(`${route.method} ${route.path}: ${res.text}`)
        }
      }
    }
    expect(leaks).toEqual([])
  })
})

describe('PUT /v1/subscribers/:id takes every partial body', () => {
  test.each(GENERATIONS)('%s: a body without email updates the other fields', async (name) => {
    const { app } = createMock({ apiGeneration: name, scenario: 'empty', seed: 'walk' })
    await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 'u1', email: 'a@b.io' } })

    const res = await request(app, 'PUT', '/v1/subscribers/u1', { body: { firstName: 'Ada' } })

    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ subscriberId: 'u1', firstName: 'Ada', email: 'a@b.io' })
  })
})
