import { Novu as NovuApi } from '@novu/api'
import { Novu } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { keyFactory } from './sdk-helpers.js'

// Preferences, the inbox on behalf of a subscriber and tenants through the official SDKs, on the
// default data: user-3301 has email turned off for welcome-email, user-1042 one in-app message.

const running: Partial<Record<'2026-08' | '2024-10', RunningMock>> = {}
const nextKey = keyFactory('sdk-prefs')

beforeAll(async () => {
  running['2026-08'] = await startMock({ port: 0, logLevel: 'silent' })
  running['2024-10'] = await startMock({ port: 0, logLevel: 'silent', apiGeneration: '2024-10' })
})
afterAll(async () => {
  await running['2026-08']?.close()
  await running['2024-10']?.close()
})

const node = (generation: '2026-08' | '2024-10') =>
  new Novu(nextKey(), { backendUrl: (running[generation] as RunningMock).url })
const api = () =>
  new NovuApi({
    secretKey: nextKey(),
    serverURL: (running['2026-08'] as RunningMock).url,
    retryConfig: { strategy: 'none' },
  })

describe.each(['2026-08', '2024-10'] as const)('@novu/node 2.6.6 (%s)', (generation) => {
  test('getPreference shows the seeded email-off for welcome-email', async () => {
    const { data } = await node(generation).subscribers.getPreference('user-3301')
    const welcome = data.data.find(
      (p: { template: { name: string } }) => p.template.name === 'Welcome Email'
    )
    expect(welcome.preference.channels).toEqual({ email: false, in_app: true })
  })

  test('updatePreference turns a channel off and a trigger then skips it', async () => {
    const novu = node(generation)
    const { data } = await novu.subscribers.updatePreference(
      'user-1042',
      '66fbb0a0c1f2e3d4a5b61001',
      {
        channel: { type: 'in_app' as never, enabled: false },
      }
    )
    expect(data.data.preference.channels.in_app).toBe(false)
    const sent = await novu.trigger('welcome-email', {
      to: 'user-1042',
      payload: { firstName: 'Ada', productName: 'Acme' },
    })
    const { data: feed } = await novu.subscribers.getNotificationsFeed('user-1042', { limit: 100 })
    const ids = feed.data.map((m: { transactionId: string }) => m.transactionId)
    expect(ids).not.toContain(sent.data.data.transactionId)
  })

  test('updateGlobalPreference and getGlobalPreference answer the global channels', async () => {
    const novu = node(generation)
    await novu.subscribers.updateGlobalPreference('user-1042', {
      preferences: [{ type: 'sms' as never, enabled: false }],
    })
    const { data } = await novu.subscribers.getGlobalPreference('user-1042')
    expect(data.data[0].preference.channels.sms).toBe(false)
  })

  test('the feed, the unseen count, markMessageAs and markAllMessagesAs', async () => {
    const novu = node(generation)
    const { data: feed } = await novu.subscribers.getNotificationsFeed('user-1042', {})
    expect(feed.data.map((m: { content: string }) => m.content)).toEqual([
      'Order 1001 is on its way',
    ])
    const { data: unseen } = await novu.subscribers.getUnseenCount('user-1042', false)
    expect(unseen.data.count).toBe(1)
    const marked = await novu.subscribers.markMessageAs('user-1042', feed.data[0]._id, {
      seen: true,
    })
    expect(marked.data.data[0].seen).toBe(true)
    const all = await novu.subscribers.markAllMessagesAs('user-1042', 'read' as never)
    expect(all.data.data).toBe(1)
  })

  test('markMessageActionSeen records the action', async () => {
    const novu = node(generation)
    const { data: feed } = await novu.subscribers.getNotificationsFeed('user-1042', {})
    const res = await novu.subscribers.markMessageActionSeen(
      'user-1042',
      feed.data[0]._id,
      'primary' as never,
      {
        status: 'done' as never,
      }
    )
    expect(res.data.data.cta.action.status).toBe('done')
  })

  test('tenants: create, get, list, update and delete', async () => {
    const novu = node(generation)
    const created = await novu.tenants.create('acme', { name: 'Acme', data: { plan: 'pro' } })
    expect(created.status).toBe(201)
    expect((await novu.tenants.get('acme')).data.data.name).toBe('Acme')
    expect((await novu.tenants.list({})).data.data).toHaveLength(1)
    const updated = await novu.tenants.update('acme', { name: 'Acme Inc' })
    expect(updated.data.data.name).toBe('Acme Inc')
    expect((await novu.tenants.delete('acme')).status).toBe(204)
  })
})

describe('@novu/api 3.19.1 (2026-08)', () => {
  test('preferences.list parses and shows the seeded email-off', async () => {
    const { result } = await api().subscribers.preferences.list({ subscriberId: 'user-3301' })
    const welcome = result.workflows.find((w) => w.workflow.identifier === 'welcome-email')
    expect(welcome?.channels).toMatchObject({ email: false, inApp: true })
  })

  test('preferences.update turns in-app off for a workflow by identifier', async () => {
    const { result } = await api().subscribers.preferences.update(
      { workflowId: 'welcome-email', channels: { inApp: false } },
      'user-1042'
    )
    const welcome = result.workflows.find((w) => w.workflow.identifier === 'welcome-email')
    expect(welcome?.channels.inApp).toBe(false)
  })

  test('preferences.bulkUpdate changes several workflows in one call', async () => {
    const { result } = await api().subscribers.preferences.bulkUpdate(
      { preferences: [{ workflowId: 'welcome-email', channels: { email: false } }] },
      'user-1042'
    )
    expect(result).toHaveLength(1)
    expect(result[0]).toMatchObject({
      level: 'template',
      workflow: { identifier: 'welcome-email' },
    })
    expect(result[0]?.channels.email).toBe(false)
  })

  test('notifications.feed and unseenCount parse', async () => {
    const novu = api()
    const feed = await novu.subscribers.notifications.feed({ subscriberId: 'user-1042' })
    expect(feed.result.data).toHaveLength(1)
    const count = await novu.subscribers.notifications.unseenCount({ subscriberId: 'user-1042' })
    expect(count.result.count).toBe(1)
  })

  test('messages.markAllAs, markAll and updateAsSeen parse', async () => {
    const novu = api()
    const feed = await novu.subscribers.notifications.feed({ subscriberId: 'user-1042' })
    const messageId = feed.result.data[0]?.id as string
    const marked = await novu.subscribers.messages.markAllAs(
      { messageId, markAs: 'seen' },
      'user-1042'
    )
    expect(marked.result[0]?.seen).toBe(true)
    const all = await novu.subscribers.messages.markAll({ markAs: 'read' }, 'user-1042')
    expect(all.result).toBe(1)
    const action = await novu.subscribers.messages.updateAsSeen({
      messageId,
      type: 'primary',
      subscriberId: 'user-1042',
      markMessageActionAsSeenDto: { status: 'done' },
    })
    expect(action.result.id).toBe(messageId)
  })
})

describe('@novu/api 3.19.1 v2 inbox (2026-08)', () => {
  const first = async (novu: NovuApi) => {
    const { result } = await novu.subscribers.notifications.list({ subscriberId: 'user-1042' })
    return result.data[0]?.id as string
  }

  test('notifications.list parses the seeded in-app message as an inbox notification', async () => {
    const { result } = await api().subscribers.notifications.list({ subscriberId: 'user-1042' })
    expect(result.hasMore).toBe(false)
    expect(result.data).toHaveLength(1)
    expect(result.data[0]).toMatchObject({
      body: 'Order 1001 is on its way',
      isRead: false,
      isSeen: false,
      isArchived: false,
      channelType: 'in_app',
      to: { subscriberId: 'user-1042' },
    })
  })

  test('markAsRead, markAsUnread and archive answer the changed notification', async () => {
    const novu = api()
    const notificationId = await first(novu)
    const request = { subscriberId: 'user-1042', notificationId }
    expect((await novu.subscribers.notifications.markAsRead(request)).result.isRead).toBe(true)
    expect((await novu.subscribers.notifications.markAsUnread(request)).result.isRead).toBe(false)
    expect((await novu.subscribers.notifications.archive(request)).result.isArchived).toBe(true)
  })

  test('snooze sets the time, and completeAction parses', async () => {
    const novu = api()
    const notificationId = await first(novu)
    const until = new Date('2030-01-01T00:00:00.000Z')
    const snoozed = await novu.subscribers.notifications.snooze({
      subscriberId: 'user-1042',
      notificationId,
      snoozeSubscriberNotificationDto: { snoozeUntil: until },
    })
    expect(snoozed.result.isSnoozed).toBe(true)
    const done = await novu.subscribers.notifications.completeAction({
      subscriberId: 'user-1042',
      notificationId,
      actionType: 'primary',
    })
    expect(done.result.id).toBe(notificationId)
  })

  test('count, markAsSeen, markAllAsRead and delete', async () => {
    const novu = api()
    const notificationId = await first(novu)
    const counted = await novu.subscribers.notifications.count(
      'user-1042',
      JSON.stringify([{ read: false }])
    )
    expect(counted.result).toEqual([{ count: 1, filter: { read: false } }])
    await novu.subscribers.notifications.markAsSeen(
      { notificationIds: [notificationId] },
      'user-1042'
    )
    await novu.subscribers.notifications.markAllAsRead({}, 'user-1042')
    const { result } = await novu.subscribers.notifications.list({ subscriberId: 'user-1042' })
    expect(result.data[0]).toMatchObject({ isSeen: true, isRead: true })
    await novu.subscribers.notifications.delete({ subscriberId: 'user-1042', notificationId })
    const after = await novu.subscribers.notifications.list({ subscriberId: 'user-1042' })
    expect(after.result.data).toEqual([])
  })
})
