import { z } from 'zod'
import { CHANNELS, CHANNELS_WITH_TOOL } from '../channels.js'
import { RuleSchema } from '../chaos/rules.schemas.js'
import { ScenarioWebhookSchema } from '../webhooks/webhooks.schemas.js'
import { MAX_ENDPOINTS_PER_SCOPE } from '../webhooks/endpoints.js'
import { GENERATION_NAMES } from '../generations/generation.js'
import { ServerFlagsSchema } from '../tenancy/server-flags.js'
import { JOB_STATUSES } from '../resources/notifications/notifications.store.js'
import { lazySchema, once } from '../lazy-schema.js'

const ObjectId = once(() => z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-hex ObjectId'))
const IsoDate = once(() => z.iso.datetime({ offset: true }))
const Count = once(() => z.number().int().min(0))

const GroupRecordSchema = once(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    name: z.string().min(1),
    _parentId: z.string().optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

/** A topic subscription (what an export writes); `subscribers` below is the short form. */
const SubscriptionRecordSchema = once(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    subscriberId: z.string().min(1),
    identifier: z.string().min(1).max(512).optional(),
    name: z.string().optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

const TopicRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    key: z.string().min(1),
    name: z.string().nullable().optional(),
    /** subscriberIds: each becomes a subscription (and a subscriber, when none exists). */
    subscribers: z.array(z.string()).optional(),
    /** Subscriptions in full; when given, `subscribers` is ignored. */
    subscriptions: z.array(SubscriptionRecordSchema()).optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

const SubscriberText = once(() => z.string().nullable().optional())

/** A subscriber as POST /v2/subscribers takes it, or as an export writes it. */
const SubscriberRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    subscriberId: z.string().min(1),
    firstName: SubscriberText(),
    lastName: SubscriberText(),
    email: SubscriberText(),
    phone: SubscriberText(),
    avatar: SubscriberText(),
    locale: SubscriberText(),
    timezone: SubscriberText(),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

/** A step as POST /v1/workflows takes it (its template), or as POST /v2/workflows does (its type). */
const WorkflowStepRecordSchema = once(() =>
  z.union([
    z.looseObject({ template: z.looseObject({ type: z.string() }) }),
    z.looseObject({ name: z.string().min(1), type: z.string().min(1), _id: ObjectId().optional() }),
  ])
)

/**
 * A workflow as POST /v1/workflows takes it, as POST /v2/workflows does (with `workflowId`, and
 * `_id`s to keep), or a whole exported document (kept as is).
 */
const WorkflowRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    name: z.string().min(1),
    workflowId: z.string().min(1).optional(),
    notificationGroupId: ObjectId().optional(),
    _notificationGroupId: ObjectId().optional(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    active: z.boolean().optional(),
    critical: z.boolean().optional(),
    steps: z.array(WorkflowStepRecordSchema()).optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

const MessageRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    transactionId: z.string().min(1),
    channel: z.enum(CHANNELS),
    subscriberId: z.string().optional(),
    workflowId: ObjectId().optional(),
    content: z.unknown().optional(),
    deleted: z.boolean().optional(),
    createdAt: IsoDate().optional(),
  })
)

/**
 * Faker-made bulk per environment. Together the maxima fit one environment (about 450 MB) in the
 * default memory budget; the budget still decides how many such environments live at once.
 */
const GenerateSchema = once(() =>
  z.strictObject({
    notificationGroups: Count().max(1_000).default(0),
    topics: Count().max(100_000).default(0),
    workflows: Count().max(20_000).default(0),
    transactions: Count().max(30_000).default(0),
  })
)

/** A delivery integration: which channel can send, with which provider. Absent list: a new environment's. */
const IntegrationRecordSchema = once(() =>
  z.looseObject({
    channel: z.enum(CHANNELS),
    providerId: z.string().min(1),
    active: z.boolean().default(true),
    name: z.string().optional(),
    identifier: z.string().optional(),
  })
)

/**
 * A job as an export writes it. An import keeps its records as sent, so what the activity feed,
 * the clock and cancels read of a job must be there and of its type, or a later request fails.
 */
const JobRecordSchema = once(() =>
  z.looseObject({
    _id: ObjectId(),
    type: z.string(),
    status: z.enum(JOB_STATUSES),
    step: z.looseObject({}),
    executionDetails: z.array(z.looseObject({})),
    payload: z.record(z.string(), z.unknown()).optional(),
    overrides: z.record(z.string(), z.unknown()).optional(),
    digest: z.looseObject({}).optional(),
    dueAt: IsoDate().optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

/** A notification with its jobs, as an export writes it (triggers create them). */
const NotificationRecordSchema = once(() =>
  z.looseObject({
    _id: ObjectId(),
    _templateId: z.string(),
    _subscriberId: ObjectId(),
    transactionId: z.string().min(1),
    channels: z.array(z.string()).default([]),
    payload: z.record(z.string(), z.unknown()).default({}),
    tags: z.array(z.string()).default([]),
    jobs: z.array(JobRecordSchema()).default([]),
    createdAt: IsoDate(),
    updatedAt: IsoDate().optional(),
  })
)

/** A subscriber's own preference: global, or for one workflow (its `_id` or trigger identifier). */
const PreferenceRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    subscriberId: z.string().min(1),
    workflowId: z.string().min(1).optional(),
    /** 2024-10's workflow-level switch (later servers ignore it). */
    enabled: z.boolean().optional(),
    channels: z.partialRecord(z.enum(CHANNELS_WITH_TOOL), z.boolean()).default({}),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

const TenantRecordSchema = lazySchema(() =>
  z.looseObject({
    _id: ObjectId().optional(),
    identifier: z.string().min(1),
    name: z.string().min(1),
    data: z.unknown().optional(),
    createdAt: IsoDate().optional(),
    updatedAt: IsoDate().optional(),
  })
)

export const DataSchema = lazySchema(() =>
  z.strictObject({
    notificationGroups: z.array(GroupRecordSchema()).default([]),
    subscribers: z.array(SubscriberRecordSchema).default([]),
    topics: z.array(TopicRecordSchema).default([]),
    workflows: z.array(WorkflowRecordSchema).default([]),
    messages: z.array(MessageRecordSchema).default([]),
    integrations: z.array(IntegrationRecordSchema()).optional(),
    notifications: z.array(NotificationRecordSchema()).optional(),
    preferences: z.array(PreferenceRecordSchema).optional(),
    tenants: z.array(TenantRecordSchema).optional(),
    generate: GenerateSchema().optional(),
  })
)

const KeySchema = once(() =>
  z.strictObject({
    apiKey: z.string().min(1).max(256),
    role: z.enum(['Development', 'Production']).default('Development'),
    description: z.string().optional(),
    /** This key's environment answers in another generation than the scenario's. */
    apiGeneration: z.enum(GENERATION_NAMES).optional(),
    /** A revoked key: every request with it gets upstream's `401 API Key not found`. */
    revoked: z.boolean().optional(),
    /** Upstream feature flags for this key's environment, over the scenario's. */
    serverFlags: ServerFlagsSchema.optional(),
  })
)

const ClockSchema = once(() =>
  z.discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('real') }),
    z.strictObject({ mode: z.literal('fixed'), at: IsoDate() }),
  ])
)

export type TopicRecord = z.infer<typeof TopicRecordSchema>
export type SubscriberRecord = z.infer<typeof SubscriberRecordSchema>
export type WorkflowRecord = z.infer<typeof WorkflowRecordSchema>
export type MessageRecord = z.infer<typeof MessageRecordSchema>
export type PreferenceRecord = z.infer<typeof PreferenceRecordSchema>
export type TenantRecord = z.infer<typeof TenantRecordSchema>
export type ScenarioData = z.infer<typeof DataSchema>

export const ScenarioSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" and "-", at most 64'),
    description: z.string().default(''),
    seed: z.union([z.string().max(256), z.number().int()]).optional(),
    /** Which server the environments answer as, unless the mock was started with one. */
    apiGeneration: z.enum(GENERATION_NAMES).optional(),
    /** Workflows one environment may hold (upstream's limit since 2025: 100 self-hosted, 20 on Cloud's free tier); 0 lifts it. */
    maxWorkflows: z.number().int().min(0).optional(),
    /** Upstream feature flags whose Cloud value is unknown (tenants, 2024-10 preferences). */
    serverFlags: ServerFlagsSchema.optional(),
    /** Start from a data set in the top-level fixtures/ folder, then add `data` to it. */
    fixture: z.string().optional(),
    environments: z
      .strictObject({
        keys: z.array(KeySchema()).default([]),
        /** Refuse undeclared keys with upstream's `401 API Key not found`. */
        strict: z.boolean().default(false),
      })
      .default({ keys: [], strict: false }),
    data: DataSchema.default({
      notificationGroups: [],
      subscribers: [],
      topics: [],
      workflows: [],
      messages: [],
    }),
    rules: z.array(RuleSchema).default([]),
    webhooks: z
      .array(ScenarioWebhookSchema)
      .max(MAX_ENDPOINTS_PER_SCOPE)
      .default([])
      .meta({ description: 'outbound webhook endpoints: for one apiKey, or every key' }),
    clock: ClockSchema().default({ mode: 'real' }),
  })
)

export type Scenario = z.infer<typeof ScenarioSchema>
