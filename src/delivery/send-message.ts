import type { Environment } from '../tenancy/environment.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { Subscriber } from '../resources/subscribers/subscribers.store.js'
import type { Job } from '../resources/notifications/notifications.store.js'
import type { EventsRules } from '../resources/events/events.generations.js'
import { bridgeWorkflowOf, executeBridge } from './bridge.js'
import { addDetail } from './job-details.js'
import { renderTemplate, RenderError } from './languages/handlebars.js'
import { NO_ACTION, newMessage } from './message-document.js'
import { isObj, type Obj } from '../objects.js'
import { copyOf } from './copy-of.js'
import { admitMessage, recordMessage } from './trigger-scope.js'
import { tenantOfJob } from '../resources/tenants/tenant-context.js'

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

/**
 * `{...payload, subscriber, step, actor?, tenant?}`: payload keys at the top level, reserved keys
 * win (set after the copy, each where the payload had it or else at the end, as a spread would).
 */
function compileData(ctx: SendContext): Obj {
  const { events } = ctx
  const data = copyOf(ctx.job.payload)
  data.subscriber = ctx.subscriber
  data.step = { digest: !!events?.length, events, total_count: events?.length }
  if (ctx.actor) data.actor = ctx.actor
  const tenant = tenantOfJob(ctx.env, ctx.job.tenant)
  if (tenant) data.tenant = { ...tenant, id: tenant._id }
  const context = ctx.rules.renderContext(ctx.env.role)
  for (const key in context) data[key] = context[key]
  return data
}

const branding = { logo: undefined, color: '#f47373' }

const NO_OVERRIDES: Obj = Object.freeze({})

/** Stores a message once the memory budget holds it; `further`: not the step's first one. */
function store(ctx: SendContext, fields: Obj, further = false): Message {
  admitMessage(ctx.env, ctx.job.step, fields, further)
  const message = newMessage(ctx, fields)
  ctx.env.messages.add(message)
  recordMessage(message)
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

/** The in-app step's cta: the template's, its url and button texts rendered (`data` has the branding). */
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
        ? { ...sent, url: renderTemplate(sent.url, data) }
        : sent
  }
  out.action = {
    ...action,
    buttons: buttons.map((b) => {
      const button = isObj(b) ? b : {}
      return {
        type: button.type,
        content: renderTemplate(button.content, data),
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

/*
 * The channel senders hand `store` the fields their message differs in, in any order (the
 * document puts them in its own): one object, added to, since a spread with more fields after
 * it is slow on Node 20 (see copy-of.ts).
 */

function sendInApp(ctx: SendContext, template: Obj, providerId: string, bridge?: Obj) {
  const actor = isObj(template.actor) && template.actor.type !== 'none' ? template.actor : undefined
  const fields: Obj = {
    channel: 'in_app',
    _feedId: (template._feedId as string | null | undefined) ?? null,
    providerId,
  }
  if (actor) fields.actor = actor
  if (bridge) return void store(ctx, Object.assign(fields, bridgeInApp(bridge)))
  // Every text of the step renders with the same data and the branding.
  const data = compileData(ctx)
  data.branding = branding
  fields.content = template.content ? renderTemplate(template.content, data) : ''
  fields.cta = inAppCta(template.cta, data)
  store(ctx, fields)
}

/**
 * The email step: the message is stored before rendering (with the template's subject), then
 * the rendered subject and blocks (trimmed) replace it; a custom HTML stays as written.
 */
function sendEmail(ctx: SendContext, template: Obj, providerId: string, bridge?: Obj) {
  const email = ctx.rules.emailRecipient(ctx.job.payload, ctx.job.overrides, ctx.subscriber.email)
  const fields: Obj = {
    channel: 'email',
    email,
    providerId,
    overrides: providerOverrides(ctx.job.overrides, 'email', providerId),
  }
  if (!email) {
    fields.status = 'warning'
    fields.errorId = 'mail_unexpected_error'
    fields.errorText = 'Subscriber does not have an email address'
  }
  if (bridge) {
    // The bridge's subject and HTML body (none when the body is empty).
    fields.subject = bridge.subject || template.subject || ''
    fields.content = bridge.body || undefined
    return void store(ctx, fields)
  }
  let subject: string
  let content: unknown = template.content
  try {
    const emailData = compileData(ctx)
    emailData.preheader = template.preheader
    emailData.blocks = []
    emailData.branding = branding
    subject = renderTemplate(template.subject ?? '', emailData).trim()
    const editor = (template.contentType ?? 'editor') === 'editor'
    if (editor && Array.isArray(template.content))
      content = template.content.map((block) => {
        const rendered = copyOf(isObj(block) ? block : {})
        rendered.content = renderTemplate(rendered.content, emailData).trim()
        rendered.url = renderTemplate(rendered.url || '', emailData).trim()
        return rendered
      })
  } catch (error) {
    if (!(error instanceof RenderError)) throw error
    fields.subject = template.subject ?? ''
    store(ctx, fields)
    throw error
  }
  fields.subject = subject
  fields.content = content
  store(ctx, fields)
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
    store(
      ctx,
      {
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
      },
      sent > 0
    )
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
