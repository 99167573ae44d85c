import { isObj, type Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Message } from '../messages/messages.store.js'

/** Fields the inbox keeps on a message beside the stored ones (archive, snooze, first sight). */
export interface InboxFields {
  archivedAt?: string | null
  snoozedUntil?: string | null
  firstSeenDate?: string | null
}

export const inboxFields = (m: Message) => m as Message & InboxFields

/** An in-app button as the inbox shows it, completed when the recorded action is its own. */
function action(m: Message, type: 'primary' | 'secondary'): Obj | undefined {
  const cta = isObj(m.cta) ? m.cta : {}
  const act = isObj(cta.action) ? cta.action : {}
  const buttons = Array.isArray(act.buttons) ? act.buttons : []
  const button = buttons.find((b) => isObj(b) && b.type === type) as Obj | undefined
  if (!button) return undefined
  const result = isObj(act.result) ? act.result : {}
  return {
    label: String(button.content ?? ''),
    isCompleted: act.status === 'done' && result.type === type,
    ...(isObj(button.url) || typeof button.url === 'string'
      ? { redirect: { url: button.url } }
      : {}),
  }
}

/** Upstream's inbox notification mapper (subscriber facts §4.7), what a message lacks left out. */
export function inboxNotification(env: Environment, m: Message): Obj {
  const s = m.subscriber
  const workflow = env.workflows.get(m._templateId)
  const fields = inboxFields(m)
  const primary = action(m, 'primary')
  const secondary = action(m, 'secondary')
  const cta = isObj(m.cta) ? m.cta : {}
  const url = isObj(cta.data) ? cta.data.url : undefined
  const severity = typeof workflow?.severity === 'string' ? workflow.severity : 'none'
  return {
    id: m._id,
    transactionId: m.transactionId,
    ...(m.subject !== undefined ? { subject: m.subject } : {}),
    body: typeof m.content === 'string' ? m.content : '',
    to: {
      id: s._id,
      ...(s.firstName ? { firstName: s.firstName } : {}),
      ...(s.lastName ? { lastName: s.lastName } : {}),
      ...(s.avatar ? { avatar: s.avatar } : {}),
      subscriberId: s.subscriberId,
    },
    isRead: m.read,
    isSeen: m.seen,
    isArchived: m.archived,
    isSnoozed: !!fields.snoozedUntil,
    ...(fields.snoozedUntil ? { snoozedUntil: fields.snoozedUntil } : {}),
    createdAt: m.createdAt,
    readAt: m.lastReadDate ?? null,
    firstSeenAt: fields.firstSeenDate ?? null,
    archivedAt: fields.archivedAt ?? null,
    ...(primary ? { primaryAction: primary } : {}),
    ...(secondary ? { secondaryAction: secondary } : {}),
    channelType: m.channel,
    tags: m.tags ?? [],
    ...(typeof url === 'string' && url ? { redirect: { url } } : {}),
    data: m.payload ?? {},
    ...(workflow
      ? {
          workflow: {
            id: workflow._id,
            identifier: workflow.triggers?.[0]?.identifier ?? '',
            name: workflow.name,
            critical: workflow.critical === true,
            tags: workflow.tags ?? [],
            severity,
          },
        }
      : {}),
    severity,
  }
}
