import type { Environment } from '../../tenancy/environment.js'
import type { Message } from '../messages/messages.store.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Job } from '../notifications/notifications.store.js'
import type { EventsRules } from './events.generations.js'
import { bridgeWorkflowOf, executeBridge } from './bridge.js'
import { addDetail } from './job-details.js'
import { renderTemplate, RenderError } from './render.js'
import { isObj } from '../../objects.js'

type Obj = Record<string, unknown>
const DAY_MS = 86_400_000

/** What a channel step sends with: its job, the subscriber and the render context. */
export interface SendContext {
  env: Environment
  rules: EventsRules
  job: Job
  subscriber: Subscriber
  actor?: Subscriber
  tags: string[]
  /** The digested events when the step follows a digest. */
  events?: Obj[]
  /** The virtual time the step runs at. */
  at: string
}

/** `{...payload, subscriber, step, actor?, tenant?}`: payload keys at the top level, reserved keys win. */
function compileData(ctx: SendContext): Obj {
  const { events } = ctx
  return {
    ...ctx.job.payload,
    subscriber: ctx.subscriber,
    step: { digest: !!events?.length, events, total_count: events?.length },
    ...(ctx.actor ? { actor: ctx.actor } : {}),
    ...ctx.rules.renderContext(ctx.env.role),
  }
}

const branding = { logo: undefined, color: '#f47373' }

/** The payload a message keeps: the trigger's, without attachments. */
function messagePayload(payload: Obj): Obj {
  if (!('attachments' in payload)) return payload
  const { attachments: _attachments, ...rest } = payload
  return rest
}

/**
 * Parts of message documents that are the same in many of them, shared (and frozen) rather than
 * made again for each: a message is kept for the life of its environment, and these were a
 * third of what one took.
 */
const NO_ACTION: Obj = Object.freeze({ action: Object.freeze({ buttons: Object.freeze([]) }) })
const NO_TOKENS = Object.freeze([]) as unknown as unknown[]
const NO_OVERRIDES: Obj = Object.freeze({})
let lastDelivered: { at: string; list: readonly string[] } | undefined
const deliveredAt = (at: string) =>
  lastDelivered?.at === at
    ? lastDelivered.list
    : (lastDelivered = { at, list: Object.freeze([at]) }).list
let lastExpiry: { at: string; days: number; expireAt: string } | undefined
function expiryOf(at: string, days: number): string {
  if (lastExpiry?.at !== at || lastExpiry.days !== days)
    lastExpiry = { at, days, expireAt: new Date(Date.parse(at) + days * DAY_MS).toISOString() }
  return lastExpiry.expireAt
}

/** The message document, in the field order upstream's schema gives it. */
function messageDocument(ctx: SendContext, fields: Obj): Message {
  const { env, rules, job, at } = ctx
  const channel = fields.channel as string
  const template = job.step.template as Obj
  const doc: Obj = {
    _id: env.newId(),
    _templateId: job._templateId,
    _environmentId: env._environmentId,
    _messageTemplateId: template._id,
    _notificationId: job._notificationId,
    _organizationId: env._organizationId,
    _subscriberId: ctx.subscriber._id,
    _jobId: job._id,
    templateIdentifier: job.identifier,
  }
  if (rules.severityFields && typeof job.step.stepId === 'string') doc.stepId = job.step.stepId
  for (const key of ['email', 'subject']) if (fields[key] !== undefined) doc[key] = fields[key]
  // Mongoose's default for the nested path, on every channel.
  doc.cta = fields.cta ?? NO_ACTION
  if (fields._feedId !== undefined) doc._feedId = fields._feedId
  doc.channel = channel
  if (fields.content !== undefined) doc.content = fields.content
  if (fields.avatar !== undefined) doc.avatar = fields.avatar
  if (fields.data !== undefined) doc.data = fields.data
  if (fields.phone !== undefined) doc.phone = fields.phone
  doc.providerId = fields.providerId
  doc.deviceTokens = fields.deviceTokens ?? NO_TOKENS
  if (fields.title !== undefined) doc.title = fields.title
  doc.seen = false
  doc.read = false
  doc.archived = false
  if (rules.severityFields && channel === 'in_app') doc.deliveredAt = deliveredAt(at)
  doc.status = fields.status ?? 'sent'
  if (fields.errorId !== undefined) doc.errorId = fields.errorId
  if (fields.errorText !== undefined) doc.errorText = fields.errorText
  doc.transactionId = job.transactionId
  doc.payload = messagePayload(job.payload)
  if (fields.overrides !== undefined) doc.overrides = fields.overrides
  if (fields.actor !== undefined) {
    doc.actor = fields.actor
    if (job._actorId) doc._actorId = job._actorId
  }
  const retention = rules.messageRetentionDays?.(channel)
  if (retention !== undefined) doc.expireAt = expiryOf(at, retention)
  doc.tags = ctx.tags
  if (rules.severityFields) doc.severity = 'none'
  if (rules.softDeletedMessages) doc.deleted = false
  doc.subscriber = ctx.subscriber
  doc.createdAt = at
  doc.updatedAt = at
  doc.__v = 0
  return doc as unknown as Message
}

function store(ctx: SendContext, fields: Obj): Message {
  const message = messageDocument(ctx, fields)
  ctx.env.messages.add(message)
  addDetail(ctx, 'Message created', 'Pending', fields.providerId as string)
  if (message.status === 'sent')
    addDetail(ctx, 'Message sent', 'Success', fields.providerId as string)
  return message
}

function providerOverrides(overrides: Obj, channel: string, providerId: string): Obj {
  const forChannel = overrides[channel]
  const forProvider = overrides[providerId]
  if (!isObj(forChannel) && !isObj(forProvider)) return NO_OVERRIDES
  return {
    ...(isObj(forChannel) ? forChannel : {}),
    ...(isObj(forProvider) ? forProvider : {}),
  }
}

/** The in-app step's cta: the template's, its url and button texts rendered. */
function inAppCta(cta: unknown, data: Obj): Obj {
  const source = isObj(cta) ? cta : {}
  const action = isObj(source.action) ? source.action : {}
  const buttons = Array.isArray(action.buttons) ? action.buttons : []
  // The template's cta says nothing: the default every such message shares.
  if (
    source.type === undefined &&
    source.data === undefined &&
    buttons.length === 0 &&
    Object.keys(action).every((key) => key === 'buttons')
  )
    return NO_ACTION
  const out: Obj = {}
  if (source.type !== undefined) out.type = source.type
  if (source.data !== undefined) {
    const sent = isObj(source.data) ? source.data : {}
    out.data =
      typeof sent.url === 'string' && sent.url
        ? { ...sent, url: renderTemplate(sent.url, { ...data, branding }) }
        : sent
  }
  out.action = {
    ...action,
    buttons: buttons.map((b) => {
      const button = isObj(b) ? b : {}
      return {
        type: button.type,
        content: renderTemplate(button.content, { ...data, branding }),
      }
    }),
  }
  return out
}

/**
 * A dashboard workflow's in-app outputs as the message keeps them (upstream's
 * inAppMessageFromBridgeOutputs): `body` as the content, `redirect` and the two actions as the
 * cta, the subject, avatar and data as they are. Unset fields stay out, as Mongoose drops them.
 */
function bridgeInApp(outputs: Obj): Obj {
  const redirect = isObj(outputs.redirect) ? outputs.redirect : {}
  const button = (type: string, value: unknown) => {
    if (!isObj(value)) return []
    const to = isObj(value.redirect) ? value.redirect : {}
    return [
      {
        type,
        content: value.label,
        ...(to.url !== undefined ? { url: to.url } : {}),
        ...(to.target !== undefined ? { target: to.target } : {}),
      },
    ]
  }
  const data: Obj = {}
  if (redirect.url !== undefined) data.url = redirect.url
  if (redirect.target !== undefined) data.target = redirect.target
  return {
    content: outputs.body || '',
    cta: {
      type: 'redirect',
      ...(Object.keys(data).length ? { data } : {}),
      action: {
        buttons: [
          ...button('primary', outputs.primaryAction),
          ...button('secondary', outputs.secondaryAction),
        ],
      },
    },
    ...(outputs.subject !== undefined ? { subject: outputs.subject } : {}),
    ...(outputs.avatar !== undefined ? { avatar: outputs.avatar } : {}),
    ...(isObj(outputs.data) && Object.keys(outputs.data).length ? { data: outputs.data } : {}),
  }
}

function sendInApp(ctx: SendContext, template: Obj, providerId: string, bridge?: Obj) {
  const actor = isObj(template.actor) && template.actor.type !== 'none' ? template.actor : undefined
  const base = {
    channel: 'in_app',
    _feedId: (template._feedId as string | null | undefined) ?? null,
    providerId,
    ...(actor ? { actor } : {}),
  }
  if (bridge) return void store(ctx, { ...base, ...bridgeInApp(bridge) })
  const data = compileData(ctx)
  const content = template.content ? renderTemplate(template.content, { ...data, branding }) : ''
  const cta = inAppCta(template.cta, data)
  store(ctx, { ...base, cta, content })
}

/**
 * The email step: the message is stored before rendering (with the template's subject), then
 * the rendered subject and blocks (trimmed) replace it; a custom HTML stays as written.
 */
function sendEmail(ctx: SendContext, template: Obj, providerId: string, bridge?: Obj) {
  const email = ctx.rules.emailRecipient(ctx.job.payload, ctx.job.overrides, ctx.subscriber.email)
  const base = {
    channel: 'email',
    email,
    providerId,
    overrides: providerOverrides(ctx.job.overrides, 'email', providerId),
    ...(email
      ? {}
      : {
          status: 'warning',
          errorId: 'mail_unexpected_error',
          errorText: 'Subscriber does not have an email address',
        }),
  }
  if (bridge) {
    // The bridge's subject and HTML body (none when the body is empty).
    const subject = bridge.subject || template.subject || ''
    return void store(ctx, { ...base, subject, content: bridge.body || undefined })
  }
  let subject: string
  let content: unknown = template.content
  try {
    const emailData = { ...compileData(ctx), preheader: template.preheader, blocks: [], branding }
    subject = renderTemplate(template.subject ?? '', emailData).trim()
    const editor = (template.contentType ?? 'editor') === 'editor'
    if (editor && Array.isArray(template.content))
      content = template.content.map((block) => {
        const b = isObj(block) ? block : {}
        return {
          ...b,
          content: renderTemplate(b.content, emailData).trim(),
          url: renderTemplate(b.url || '', emailData).trim(),
        }
      })
  } catch (error) {
    if (!(error instanceof RenderError)) throw error
    store(ctx, { ...base, subject: template.subject ?? '' })
    throw error
  }
  store(ctx, { ...base, subject, content })
}

function sendSms(ctx: SendContext, template: Obj, providerId: string, bridge?: Obj) {
  let content: string
  if (bridge) content = (bridge.body as string | undefined) || ''
  else {
    content = renderTemplate(template.content, compileData(ctx))
    if (!content) throw new RenderError('Message content could not be generated')
  }
  const sent = ctx.job.payload.phone || ctx.subscriber.phone
  const phone = typeof sent === 'string' && sent ? sent : undefined
  store(ctx, {
    channel: 'sms',
    content,
    phone,
    providerId,
    overrides: providerOverrides(ctx.job.overrides, 'sms', providerId),
    ...(phone
      ? {}
      : {
          status: 'warning',
          errorId: 'no_subscriber_phone',
          errorText: 'Subscriber does not have active phone',
        }),
  })
}

interface ChannelCredential {
  providerId: string
  credentials?: { webhookUrl?: unknown; deviceTokens?: unknown }
}

/** Chat and push: one message per subscriber channel with credentials and an active integration. */
function sendPerChannel(ctx: SendContext, template: Obj, channel: 'chat' | 'push', bridge?: Obj) {
  const data = bridge ? {} : compileData(ctx)
  const credentials = (ctx.subscriber.channels ?? []) as ChannelCredential[]
  let sent = 0
  for (const entry of credentials) {
    const integration = ctx.env.integrations.forProvider(channel, entry.providerId)
    if (!integration) continue
    const tokens = entry.credentials?.deviceTokens
    if (channel === 'push' && !(Array.isArray(tokens) && tokens.length)) continue
    if (channel === 'chat' && !entry.credentials?.webhookUrl) continue
    // Upstream stores a dashboard workflow's chat body, but leaves its push title and content
    // empty (the provider gets the bridge's, the message the compiled v1 ones, which are '').
    const content = bridge
      ? channel === 'chat'
        ? (bridge.body as string | undefined) || ''
        : ''
      : renderTemplate(template.content, data)
    store(ctx, {
      channel,
      content,
      providerId: entry.providerId,
      ...(channel === 'push'
        ? {
            title: bridge ? '' : renderTemplate(template.title ?? '', data),
            deviceTokens: tokens,
            overrides: providerOverrides(ctx.job.overrides, 'push', entry.providerId),
          }
        : {}),
    })
    sent++
  }
  if (!sent) addDetail(ctx, 'Subscriber does not have an active integration', 'Failed')
}

/**
 * Runs one channel step: a message when the channel has an active integration, none otherwise
 * (and none when the template does not render, as upstream logs and moves on).
 */
export function sendMessage(ctx: SendContext): void {
  const template = (ctx.job.step.template ?? {}) as Obj
  const channel = ctx.job.type
  addDetail(ctx, 'Start sending message', 'Pending')
  const bridge = bridgeOutputs(ctx)
  if (bridge === null) return
  try {
    if (channel === 'chat' || channel === 'push')
      return sendPerChannel(ctx, template, channel, bridge)
    const identifier =
      channel === 'email' && isObj(ctx.job.overrides.email)
        ? (ctx.job.overrides.email.integrationIdentifier as string | undefined)
        : undefined
    const integration = ctx.env.integrations.select(channel, identifier)
    if (!integration) {
      addDetail(ctx, 'Subscriber does not have an active integration', 'Failed')
      return
    }
    if (channel === 'in_app') sendInApp(ctx, template, integration.providerId, bridge)
    else if (channel === 'email') sendEmail(ctx, template, integration.providerId, bridge)
    else if (channel === 'sms') sendSms(ctx, template, integration.providerId, bridge)
  } catch (error) {
    if (!(error instanceof RenderError)) throw error
    addDetail(ctx, 'Message content could not be generated', 'Failed', undefined, {
      error: error.message,
    })
  }
}

/**
 * A dashboard (v2) workflow's step runs through upstream's bridge before anything else: its
 * outputs, undefined for a v1 workflow, or null when the bridge call failed or skipped the step
 * (no message then, as upstream).
 */
function bridgeOutputs(ctx: SendContext): Obj | undefined | null {
  const workflow = bridgeWorkflowOf(ctx.env, ctx.job)
  if (!workflow) return undefined
  try {
    const result = executeBridge(
      {
        env: ctx.env,
        job: ctx.job,
        subscriber: ctx.subscriber,
        ...(ctx.actor ? { actor: ctx.actor } : {}),
        at: ctx.at,
      },
      workflow
    )
    if ('outputs' in result) return result.outputs
    addDetail(ctx, 'Bridge execution skipped', 'Failed', undefined, { skip: true })
    return null
  } catch (error) {
    if (!(error instanceof RenderError)) throw error
    addDetail(ctx, 'Bridge execution failed', 'Failed', undefined, { error: error.message })
    return null
  }
}
