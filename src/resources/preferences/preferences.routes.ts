import { z } from 'zod'
import { inboxPreference } from './preference-event.js'
import { badRequest, CommandValidationError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { isObjectId } from '../../http/rules.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { buildSlug } from '../workflows-v2/slug-id.js'
import {
  activeChannels,
  assertPreferencesEnabled,
  environmentChannels,
  isReadOnly,
  pick,
  resolvePreference,
} from './preferences.resolve.js'
import {
  channelsOf,
  liveSubscriber,
  requireSubscriber,
  writableWorkflow,
  savePreference,
  workflowNamed,
} from './preferences.service.js'
import {
  CriticalityQuery,
  globalPreferenceBody,
  LevelParams,
  PatchPreferencesBody,
  BulkPreferencesBody,
  workflowPreferenceBody,
  type ChannelPreferenceBody,
} from './preferences.schemas.js'
import type { ChannelFlags } from './preferences.store.js'
import type { Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * A subscriber's preferences, global and per workflow: the v1 routes `@novu/node` calls and the
 * v2 ones `@novu/api` calls (2025 on). Records are the subscriber's; what they do not set comes
 * from the workflow (subscriber facts §3).
 */

const tags = ['Subscriber preferences']
const SubscriberParams = lazySchema(() => z.object({ subscriberId: z.string() }))
const WorkflowParams = lazySchema(() =>
  z.object({ subscriberId: z.string(), parameter: z.string() })
)
const v2 = { existsIn: (g: { preferences: { v2: boolean } }) => g.preferences.v2 }

/** The active workflows a v1 list shows (since 2025 without the read-only ones). */
function listedWorkflows(env: Environment): Workflow[] {
  const hides = env.generation.preferences.readOnlyHidesSubscriber
  return env.workflows.live().filter((w) => w.active && !(hides && isReadOnly(w)))
}

function templateOf(env: Environment, w: Workflow): Obj {
  const withDates = env.generation.preferences.templateDates
  return {
    _id: w._id,
    name: w.name,
    tags: w.tags ?? [],
    critical: withDates ? isReadOnly(w) : (w.critical ?? true),
    triggers: w.triggers,
    ...(w.data !== undefined ? { data: w.data } : {}),
    ...(withDates
      ? { updatedAt: w.updatedAt, createdAt: w.createdAt, severity: w.severity ?? 'none' }
      : {}),
  }
}

/** One workflow's line of the v1 list. */
function listItem(env: Environment, subscriber: Subscriber, w: Workflow, allChannels: boolean) {
  const rules = env.generation.preferences
  const resolved = resolvePreference(env, subscriber, w)
  const shown = allChannels ? rules.channels : activeChannels(env, w)
  const overrides = shown.map((channel) => ({
    channel,
    source: resolved.bySubscriber.has(channel) ? 'subscriber' : rules.templateSource,
  }))
  const channels = pick(resolved.channels, shown)
  const preference = rules.storesEnabled
    ? { enabled: resolved.enabled, channels, overrides }
    : {
        channels,
        enabled: true,
        overrides,
        ...(resolved.updatedAt ? { updatedAt: resolved.updatedAt } : {}),
      }
  return rules.item(templateOf(env, w), preference)
}

function list(env: Environment, subscriberId: string, allChannels: boolean) {
  const rules = env.generation.preferences
  const workflows = listedWorkflows(env)
  const subscriber = liveSubscriber(env, subscriberId)
  if (!subscriber) {
    if (rules.unknownListsEmpty && !workflows.length) return []
    throw rules.listUnknown(subscriberId)
  }
  assertPreferencesEnabled(env)
  return workflows.map((w) => listItem(env, subscriber, w, allChannels))
}

/** The subscriber's global channels over the defaults (true). */
function globalChannels(env: Environment, subscriber: Subscriber, shown: readonly string[]) {
  const stored = env.preferences.global(subscriber._id)
  return pick(stored?.channels ?? {}, shown)
}

function globalAnswer(env: Environment, subscriber: Subscriber, shown: readonly string[]) {
  const rules = env.generation.preferences
  const channels = globalChannels(env, subscriber, shown)
  const enabled = rules.storesEnabled
    ? (env.preferences.global(subscriber._id)?.enabled ?? true)
    : true
  return rules.storesEnabled ? { enabled, channels } : { channels, enabled }
}

const channelFlags = (preferences: ChannelPreferenceBody[] | undefined): ChannelFlags =>
  Object.fromEntries(
    (Array.isArray(preferences) ? preferences : []).map((p) => [p.type, p.enabled])
  )

/** GET /v2/subscribers/:id/preferences's body, for one criticality. */
function v2Answer(env: Environment, subscriber: Subscriber, criticality: string) {
  const workflows = env.workflows
    .live()
    .filter((w) => w.active)
    .filter((w) => criticality === 'all' || (criticality === 'critical') === isReadOnly(w))
  return {
    global: { enabled: true, channels: globalChannels(env, subscriber, environmentChannels(env)) },
    workflows: workflows.map((w) => {
      const resolved = resolvePreference(env, subscriber, w)
      const shown = activeChannels(env, w)
      return {
        enabled: true,
        channels: pick(resolved.channels, shown),
        overrides: shown.map((channel) => ({ channel, source: 'subscriber' })),
        workflow: {
          slug: buildSlug(
            w.name,
            'wf_',
            w._id,
            (name, rng) => env.generation.identifiers.slug(name, rng),
            env.rng
          ),
          identifier: w.triggers?.[0]?.identifier,
          name: w.name,
          updatedAt: w.updatedAt,
        },
        ...(resolved.updatedAt ? { updatedAt: resolved.updatedAt } : {}),
      }
    }),
  }
}

export const preferenceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/subscribers/:subscriberId/preferences',
    summary: "The subscriber's preference for every active workflow",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    responses: { 200: { description: '{data: [{template, preference, type}]}' } },
    handler(c, { env, params }) {
      const all = c.req.query('includeInactiveChannels') === 'true'
      return json(c, 200, { data: list(env, params.subscriberId, all) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscribers/:subscriberId/preferences/:parameter',
    summary: "The subscriber's global preference, or its list by workflow (`template`)",
    tags,
    auth: 'apiKey',
    params: LevelParams,
    responses: { 200: { description: '{data: [{preference}]} or the list' } },
    handler(c, { env, params }) {
      const rules = env.generation.preferences
      const sent = c.req.query('includeInactiveChannels')
      const all = sent === undefined ? rules.levelShowsInactive : sent === 'true'
      if (params.parameter === 'template')
        return json(c, 200, { data: list(env, params.subscriberId, all) })
      const subscriber = requireSubscriber(env, params.subscriberId, rules.globalUnknown)
      assertPreferencesEnabled(env)
      // 2024-10 shows every channel of its global preference, whatever the query.
      const shown = all || rules.storesEnabled ? rules.channels : environmentChannels(env)
      return json(c, 200, { data: [{ preference: globalAnswer(env, subscriber, shown) }] })
    },
  }),
  defineRoute<
    { subscriberId: string; parameter: string },
    Obj,
    { channel?: ChannelPreferenceBody; enabled?: boolean }
  >({
    method: 'PATCH',
    path: '/v1/subscribers/:subscriberId/preferences/:parameter',
    summary:
      "Change the subscriber's preference for one workflow (a channel, or all of it in 2024-10)",
    tags,
    auth: 'apiKey',
    params: WorkflowParams,
    body: workflowPreferenceBody,
    responses: { 200: { description: "The workflow's preference, in data" } },
    handler(c, { env, params, body }) {
      const rules = env.generation.preferences
      const named = params.parameter
      const channels = body.channel ? { [body.channel.type]: body.channel.enabled } : undefined
      if (!rules.patchByIdentifier) {
        if (!isObjectId(named))
          throw new CommandValidationError('UpdateSubscriberPreferenceCommand', [
            { property: 'templateId', messages: ['templateId must be a mongodb id'], value: named },
          ])
        const subscriber = requireSubscriber(env, params.subscriberId, rules.patchUnknown)
        const stored = env.preferences.forWorkflow(subscriber._id, named)
        if (stored && !channels && body.enabled === undefined)
          throw badRequest('In order to make an update you need to provider channel or enabled')
        // Upstream writes the record before it looks the workflow up.
        savePreference(env, subscriber, named, {
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(channels ? { channels } : {}),
        })
        const workflow = env.workflows.get(named)
        if (!workflow) throw rules.workflowUnknown(named)
        assertPreferencesEnabled(env)
        return json(c, 200, { data: listItem(env, subscriber, workflow, false) })
      }
      const subscriber = requireSubscriber(env, params.subscriberId, rules.patchUnknown)
      const workflow = writableWorkflow(env, named)
      if (channels) savePreference(env, subscriber, workflow._id, { channels })
      const resolved = resolvePreference(env, subscriber, workflow)
      const template = {
        _id: workflow._id,
        name: workflow.name,
        critical: workflow.critical,
        tags: workflow.tags ?? [],
        ...(workflow.data !== undefined ? { data: workflow.data } : {}),
        triggers: (workflow.triggers ?? []).map((t) => ({
          identifier: t.identifier,
          type: 'event',
          variables: [],
        })),
      }
      const preference = {
        channels: pick(resolved.channels, activeChannels(env, workflow)),
        enabled: true,
      }
      return json(c, 200, { data: { preference, template } })
    },
  }),
  defineRoute<
    { subscriberId: string },
    Obj,
    { enabled?: boolean; preferences?: ChannelPreferenceBody[] }
  >({
    method: 'PATCH',
    path: '/v1/subscribers/:subscriberId/preferences',
    summary: "Change the subscriber's global preference",
    tags,
    auth: 'apiKey',
    params: SubscriberParams,
    body: globalPreferenceBody,
    responses: { 200: { description: '{data: {preference}}' } },
    handler(c, { env, params, body }) {
      const rules = env.generation.preferences
      const subscriber = requireSubscriber(env, params.subscriberId, rules.patchUnknown)
      savePreference(env, subscriber, undefined, {
        ...(rules.storesEnabled && body.enabled !== undefined ? { enabled: body.enabled } : {}),
        channels: channelFlags(body.preferences),
      })
      assertPreferencesEnabled(env)
      const shown = rules.storesEnabled ? rules.channels : environmentChannels(env)
      return json(c, 200, { data: { preference: globalAnswer(env, subscriber, shown) } })
    },
  }),
  defineRoute<{ subscriberId: string }, { criticality?: string }, unknown>({
    method: 'GET',
    path: '/v2/subscribers/:subscriberId/preferences',
    summary: "The subscriber's global preference and its preference for each workflow",
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    query: CriticalityQuery,
    responses: { 200: { description: '{data: {global, workflows}}' } },
    handler(c, { env, params, query }) {
      const subscriber = requireSubscriber(
        env,
        params.subscriberId,
        env.generation.preferences.listUnknown
      )
      return json(c, 200, { data: v2Answer(env, subscriber, query.criticality ?? 'nonCritical') })
    },
  }),
  defineRoute<{ subscriberId: string }, Obj, { channels?: Obj; workflowId?: string }>({
    method: 'PATCH',
    path: '/v2/subscribers/:subscriberId/preferences',
    summary: "Change the subscriber's global preference, or one workflow's (`workflowId`)",
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    body: PatchPreferencesBody,
    responses: { 200: { description: 'As GET' } },
    handler(c, { env, params, body }) {
      const rules = env.generation.preferences
      // The workflow is looked up before the subscriber, and found critical after it.
      const named = body.workflowId ? workflowNamed(env, body.workflowId) : undefined
      if (body.workflowId && !named) throw rules.workflowUnknown(body.workflowId)
      const subscriber = requireSubscriber(env, params.subscriberId, rules.patchUnknown)
      const workflow = body.workflowId ? writableWorkflow(env, body.workflowId) : undefined
      const channels = channelsOf(env, body.channels)
      savePreference(env, subscriber, workflow?._id, { channels })
      return json(c, 200, { data: v2Answer(env, subscriber, 'nonCritical') })
    },
  }),
  defineRoute<
    { subscriberId: string },
    Obj,
    { preferences: { workflowId: string; channels?: Obj }[] }
  >({
    method: 'PATCH',
    path: '/v2/subscribers/:subscriberId/preferences/bulk',
    summary: "Change the subscriber's preferences of up to 100 workflows at once",
    tags,
    auth: 'apiKey',
    ...v2,
    params: SubscriberParams,
    body: BulkPreferencesBody,
    responses: { 200: { description: 'Each changed workflow preference, in data' } },
    handler(c, { env, params, body }) {
      const rules = env.generation.preferences
      const subscriber = requireSubscriber(env, params.subscriberId, rules.patchUnknown)
      // Every workflow and value is checked before anything is written.
      const changes = body.preferences.map((item) => {
        const workflow = writableWorkflow(env, item.workflowId)
        return { workflow, channels: channelsOf(env, item.channels) }
      })
      for (const { workflow, channels } of changes)
        savePreference(env, subscriber, workflow._id, { channels })
      // The inbox's preference of each workflow changed, in the order sent.
      const data = changes.map(({ workflow }) => inboxPreference(env, subscriber, workflow))
      return json(c, 200, { data })
    },
  }),
]
