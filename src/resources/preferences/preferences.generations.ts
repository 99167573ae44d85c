import { SETTINGS_ORDER, SETTINGS_ORDER_WITH_TOOL } from '../../channels.js'
import { httpError, objectError, type ApiError } from '../../errors.js'
import { workflows2026 } from '../workflows/workflows.generations.js'

/** How subscriber preferences differ between generations (subscriber facts §3, §8). */
export interface PreferencesRules {
  /** The channel keys a preference has, in upstream's order. */
  channels: readonly string[]
  /** `/v2/subscribers/:id/preferences` exists (2025 on). */
  v2: boolean
  /** 2024-10: every read answers 400 while `IS_WORKFLOW_PREFERENCES_ENABLED` is off. */
  gatedByFlag: boolean
  /** Since 2025 the global preference is merged into every workflow's, in lists and delivery. */
  mergesGlobal: boolean
  /** 2024-10 stores and applies the body's `enabled`; later servers ignore it. */
  storesEnabled: boolean
  /** Since 2025 a read-only (critical) workflow drops the subscriber's layers and is left out of lists. */
  readOnlyHidesSubscriber: boolean
  /** 2024-10 resolves the per-workflow PATCH's path by Mongo id only; later by id or identifier. */
  patchByIdentifier: boolean
  /** The source each channel reports in `overrides` when the subscriber did not set it. */
  templateSource: 'template' | 'subscriber'
  /** `GET …/preferences/:parameter` defaults `includeInactiveChannels` to true since 2025. */
  levelShowsInactive: boolean
  /** 2024-10 looks the subscriber up per workflow: with no active workflow, an unknown one gets `[]`. */
  unknownListsEmpty: boolean
  /** Since 2025 the workflow part adds its dates and severity, and `critical` is its read-only flag. */
  templateDates: boolean
  /** A list item: the workflow part, then the preference, in upstream's key order. */
  item(
    template: Record<string, unknown>,
    preference: Record<string, unknown>
  ): Record<string, unknown>
  listUnknown(subscriberId: string): ApiError
  globalUnknown(subscriberId: string): ApiError
  patchUnknown(subscriberId: string): ApiError
  workflowUnknown(id: string): ApiError
}

export const preferences2024: PreferencesRules = {
  channels: SETTINGS_ORDER,
  v2: false,
  gatedByFlag: true,
  mergesGlobal: false,
  storesEnabled: true,
  readOnlyHidesSubscriber: false,
  patchByIdentifier: false,
  templateSource: 'template',
  levelShowsInactive: false,
  unknownListsEmpty: true,
  templateDates: false,
  item: (template, preference) => ({ template, preference, type: 'SUBSCRIBER_WORKFLOW' }),
  listUnknown: (id) => httpError(400, `Subscriber ${id} not found`),
  globalUnknown: (id) => httpError(400, `Subscriber ${id} not found`),
  patchUnknown: () => httpError(404, 'Subscriber not found'),
  workflowUnknown: (id) => httpError(404, `Template with id ${id} is not found`),
}

export const preferences2026: PreferencesRules = {
  channels: SETTINGS_ORDER_WITH_TOOL,
  v2: true,
  gatedByFlag: false,
  mergesGlobal: true,
  storesEnabled: false,
  readOnlyHidesSubscriber: true,
  patchByIdentifier: true,
  templateSource: 'subscriber',
  levelShowsInactive: true,
  unknownListsEmpty: false,
  templateDates: true,
  item: (template, preference) => ({ preference, template, type: 'SUBSCRIBER_WORKFLOW' }),
  listUnknown: (id) => httpError(404, `Subscriber with id: ${id} not found`),
  globalUnknown: (id) => httpError(404, `Subscriber ${id} not found`),
  patchUnknown: (id) => httpError(404, `Subscriber with id: ${id} is not found`),
  workflowUnknown: (id) => workflows2026.notFoundById(id),
}

/** 2024-10's answer to a preference read while its feature flag is off (subscriber facts §0.1 F1). */
export const flagOff = (env: { _environmentId: string; _organizationId: string }) =>
  objectError(400, {
    message: 'Preferences Feature Flag are not enabled',
    userId: 'system',
    environmentId: env._environmentId,
    organizationId: env._organizationId,
    key: 'IS_WORKFLOW_PREFERENCES_ENABLED',
  })
