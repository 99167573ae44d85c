import { Novu } from '@novu/api'
import {
  ErrorDto,
  ResponseValidationError,
  ValidationErrorDto,
} from '@novu/api/models/errors/index.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { keyFactory } from './sdk-helpers.js'

// @novu/api 3.19.1's workflows calls against the default generation: every answer parses.

let mock: RunningMock
const nextKey = keyFactory('sdk-workflows-v2')

beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

const api = () =>
  new Novu({ secretKey: nextKey(), serverURL: mock.url, retryConfig: { strategy: 'none' } })

const rejection = <T>(promise: Promise<T>) =>
  promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error
  )

/** One step of every type the SDK knows, each with complete values. */
const EVERY_STEP = [
  {
    name: 'Email',
    type: 'email',
    controlValues: { subject: 'Paid {{payload.id}}', body: '<p>Paid</p>' },
  },
  { name: 'Inbox', type: 'in_app', controlValues: { body: 'Paid' } },
  { name: 'Wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'minutes' } },
  { name: 'Gather', type: 'digest', controlValues: { amount: 1, unit: 'hours' } },
  { name: 'Text', type: 'sms', controlValues: { body: 'Paid' } },
  { name: 'Push', type: 'push', controlValues: { subject: 'Paid', body: 'Paid' } },
  { name: 'Chat', type: 'chat', controlValues: { body: 'Paid' } },
  { name: 'Tool', type: 'tool', controlValues: { body: 'Paid' } },
  { name: 'Slow', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'minutes' } },
  { name: 'Code', type: 'custom', controlValues: {} },
  {
    name: 'Hook',
    type: 'http_request',
    controlValues: { method: 'POST', url: 'https://example.com' },
  },
] as const

describe('@novu/api 3.19.1 workflows', () => {
  test('the README flow: create, deactivate and reactivate through workflows.patch', async () => {
    const novu = api()
    const created = await novu.workflows.create({
      name: 'Invoice Paid',
      workflowId: 'invoice-paid',
      active: true,
      steps: [
        { name: 'Inbox', type: 'in_app', controlValues: { body: 'Invoice {{payload.id}} paid' } },
      ],
    })
    expect(created.result).toMatchObject({ workflowId: 'invoice-paid', status: 'ACTIVE' })

    const off = await novu.workflows.patch({ active: false }, 'invoice-paid')
    expect(off.result).toMatchObject({ active: false, status: 'INACTIVE' })

    const on = await novu.workflows.patch({ active: true }, 'invoice-paid')
    expect(on.result).toMatchObject({ active: true, status: 'ACTIVE' })
  })

  test('workflows.create without active sends false: the workflow is INACTIVE', async () => {
    const created = await api().workflows.create({
      name: 'Quiet',
      workflowId: 'quiet',
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'x' } }],
    })
    expect(created.result).toMatchObject({ active: false, status: 'INACTIVE' })
  })

  test("a workflow with a step of every type parses, the SDK's email body emptied by the block editor", async () => {
    const created = await api().workflows.create({
      name: 'Everything',
      workflowId: 'everything',
      active: true,
      steps: [...EVERY_STEP],
    })
    expect(created.result.steps.map((s) => s.type)).toEqual(EVERY_STEP.map((s) => s.type))
    expect(created.result.status).toBe('ACTIVE')
    expect(created.result.steps[0]?.controlValues).toMatchObject({ body: '', editorType: 'block' })
  })

  test('workflows.get, list and update parse their answers', async () => {
    const novu = api()
    const created = await novu.workflows.create({
      name: 'Everything',
      workflowId: 'everything',
      steps: [...EVERY_STEP],
    })
    const bySlug = await novu.workflows.get(created.result.slug)
    expect(bySlug.result.id).toBe(created.result.id)

    const list = await novu.workflows.list({ limit: 5, query: 'every' })
    expect(list.result.totalCount).toBe(1)
    expect(list.result.workflows[0]?.stepTypeOverviews).toHaveLength(EVERY_STEP.length)

    const updated = await novu.workflows.update(
      {
        name: 'Less',
        preferences: {},
        steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'x' } }],
      },
      created.result.workflowId
    )
    expect(updated.result).toMatchObject({ name: 'Less', workflowId: 'everything', active: false })
    expect(updated.result.steps).toHaveLength(1)
  })

  test('workflows.delete resolves on 204, after which get rejects with ErrorDto', async () => {
    const novu = api()
    await novu.workflows.create({ name: 'Gone', workflowId: 'gone', steps: [] })
    await expect(novu.workflows.delete('gone')).resolves.toBeUndefined()

    const error = await rejection(novu.workflows.get('gone'))
    expect(error).toBeInstanceOf(ErrorDto)
    const dto = error as ErrorDto
    expect(dto.statusCode).toBe(404)
    expect(dto.ctx).toEqual({ workflowId: 'gone' })
  })

  test('a command failure rejects with ValidationErrorDto and its keyed errors', async () => {
    const error = await rejection(api().workflows.create({ name: '', workflowId: 'x', steps: [] }))
    expect(error).toBeInstanceOf(ValidationErrorDto)
    expect((error as ValidationErrorDto).errors).toEqual({
      'workflowDto.name': {
        messages: ['name must be longer than or equal to 1 characters', 'name should not be empty'],
        value: '',
      },
    })
  })

  test('an email step without a subject is created, but the SDK cannot parse the answer', async () => {
    const novu = api()
    const error = await rejection(
      novu.workflows.create({
        name: 'No Subject',
        workflowId: 'no-subject',
        steps: [{ name: 'Email', type: 'email', controlValues: { body: 'b' } }],
      })
    )
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect((await novu.workflows.list({ query: 'no-subject' })).result.totalCount).toBe(1)
  })
})
