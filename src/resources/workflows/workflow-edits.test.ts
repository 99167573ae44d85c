import { describe, expect, test } from 'vitest'
import { request, withoutTimestamp } from '../../../test/helpers.js'
import {
  createWorkflow,
  GENERATIONS,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// PUT and DELETE /v1/workflows/:id and the /v1/notification-templates alias (more facts §2).

const PREFIXES = ['/v1/workflows', '/v1/notification-templates']

describe.each(GENERATIONS)('%s: PUT /v1/workflows/:id', (generation) => {
  test.each(PREFIXES)('%s renames and retags, keeping the description', async (prefix) => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Order Shipped', [inApp('Hi')], { description: 'd' })

    const res = await request(app, 'PUT', `${prefix}/${wf._id}`, {
      body: { name: 'Order Shipped v2', tags: ['orders', 'v2'] },
    })

    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      _id: wf._id,
      name: 'Order Shipped v2',
      tags: ['orders', 'v2'],
      description: 'd',
    })
  })

  test('a new identifier triggers, the old one answers workflow_not_found', async () => {
    const { app } = triggerMock(generation)
    await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 's1' } })
    const wf = await createWorkflow(app, 'Welcome', [inApp('Hello')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, {
      body: { identifier: 'welcome-renamed' },
    })
    const renamed = await trigger(app, { name: 'welcome-renamed', to: 's1' })
    const old = await trigger(app, { name: wf.identifier, to: 's1' })

    expect(res.body.data.triggers[0].identifier).toBe('welcome-renamed')
    expect(renamed.status).toBe(201)
    expect(old.status).toBe(422)
  })

  test('an identifier another workflow has answers 400', async () => {
    const { app } = triggerMock(generation)
    const a = await createWorkflow(app, 'Alpha', [inApp('a')])
    const b = await createWorkflow(app, 'Beta', [inApp('b')])

    const res = await request(app, 'PUT', `/v1/workflows/${b._id}`, {
      body: { identifier: a.identifier },
    })

    expect(res.status).toBe(400)
    expect(res.body.message).toBe(`Workflow with identifier ${a.identifier} already exists`)
  })

  test('new steps replace the old ones and the trigger sends the new content', async () => {
    const { app } = triggerMock(generation)
    await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 's1' } })
    const wf = await createWorkflow(app, 'Notice', [inApp('old text')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, {
      body: { steps: [inApp('new {{newVariableFromUpdate}}')] },
    })
    const sent = await trigger(app, {
      name: wf.identifier,
      to: 's1',
      payload: { newVariableFromUpdate: 'text' },
    })

    expect(res.body.data.steps).toHaveLength(1)
    expect(res.body.data.triggers[0].variables[0]).toEqual({
      name: 'newVariableFromUpdate',
      type: 'String',
    })
    const [message] = await messagesOf(app, sent.body.data.transactionId)
    expect(message?.content).toBe('new text')
  })

  test('wrong types get the DTO messages', async () => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Typed', [inApp('x')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, {
      body: { name: 5, description: 'x'.repeat(301), notificationGroupId: 'abc' },
    })

    const messages = [
      'name must be a string',
      'description must be shorter than or equal to 300 characters',
      'notificationGroupId must be a mongodb id',
    ]
    if (generation === '2024-10') expect(res.body.message).toEqual(messages)
    else expect(res.body.errors.general.messages).toEqual(messages)
  })

  test('a malformed id is refused by the command', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'PUT', '/v1/workflows/not-an-id', { body: { name: 'x' } })

    if (generation === '2024-10') {
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual(['id must be a mongodb id'])
    } else {
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(
        'Validation failed for UpdateWorkflowCommandV0: id: id must be a mongodb id'
      )
    }
  })

  test('an unknown id answers 404 in the generation words', async () => {
    const { app } = triggerMock(generation)
    const id = '66fbb0a0c1f2e3d4a5b6ffff'

    const res = await request(app, 'PUT', `/v1/workflows/${id}`, { body: { name: 'x' } })

    expect(res.status).toBe(404)
    expect(res.body.message).toBe(
      generation === '2024-10'
        ? `Notification template with id ${id} not found`
        : 'Workflow cannot be found'
    )
  })

  test('a Production key may update', async () => {
    const { app } = triggerMock(generation, { scenario: 'default' })
    const res = await request(app, 'PUT', '/v1/workflows/66fbb0a0c1f2e3d4a5b61001', {
      body: { name: 'Welcome v2' },
      key: 'production-key',
    })

    expect(res.status).toBe(200)
  })
})

describe('the empty update', () => {
  test('2024-10 refuses it: No properties found for update', async () => {
    const { app } = triggerMock('2024-10')
    const wf = await createWorkflow(app, 'Empty', [inApp('x')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, { body: { name: '' } })

    expect(res.status).toBe(400)
    expect(res.body.message).toBe('No properties found for update')
  })

  test('2026-08 answers 200 with the workflow unchanged', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await createWorkflow(app, 'Empty', [inApp('x')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, { body: {} })

    expect(res.status).toBe(200)
    expect(res.body.data.name).toBe('Empty')
  })

  test('2026-08 refuses duplicate tags in the command', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await createWorkflow(app, 'Tags', [inApp('x')])

    const res = await request(app, 'PUT', `/v1/workflows/${wf._id}`, { body: { tags: ['a', 'a'] } })

    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      "Validation failed for UpdateWorkflowCommandV0: tags: All tags's elements must be unique"
    )
  })
})

describe.each(GENERATIONS)('%s: DELETE /v1/workflows/:id', (generation) => {
  test.each(PREFIXES)('%s answers data true and the workflow is gone', async (prefix) => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Doomed', [inApp('x')])

    const res = await request(app, 'DELETE', `${prefix}/${wf._id}`)

    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: true })
    expect((await request(app, 'GET', `/v1/workflows/${wf._id}`)).status).toBe(404)
    const list = await request(app, 'GET', '/v1/workflows')
    expect(list.body.totalCount).toBe(0)
  })

  test('the identifier is free again for a new workflow', async () => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Again', [inApp('x')])
    await request(app, 'DELETE', `/v1/workflows/${wf._id}`)

    const again = await createWorkflow(app, 'Again', [inApp('y')])

    expect(again.identifier).toBe(wf.identifier)
  })

  test('a second delete answers in the generation words', async () => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Twice', [inApp('x')])
    await request(app, 'DELETE', `/v1/workflows/${wf._id}`)

    const res = await request(app, 'DELETE', `/v1/workflows/${wf._id}`)

    if (generation === '2024-10') {
      expect(res.status).toBe(400)
      expect(res.body.message).toBe(`Could not find workflow with id ${wf._id}`)
    } else {
      expect(res.status).toBe(404)
      expect(withoutTimestamp(res.body)).toMatchObject({
        message: 'Workflow cannot be found',
        workflowId: wf._id,
      })
    }
  })

  test('a malformed id names templateId', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'DELETE', '/v1/workflows/nope')

    expect(res.text).toContain('templateId must be a mongodb id')
  })

  test('a Production key gets 401', async () => {
    const { app } = triggerMock(generation, { scenario: 'default' })

    const res = await request(app, 'DELETE', '/v1/workflows/66fbb0a0c1f2e3d4a5b61001', {
      key: 'production-key',
    })

    expect(res.status).toBe(401)
    expect(res.body.message).toBe('This action is only allowed in Development environment')
  })
})
