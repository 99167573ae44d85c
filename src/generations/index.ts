import { bareHttpError, objectError, REASON } from '../errors.js'
import { filter2024, filter2026 } from './error-filters.js'
import { identifiers2024, identifiers2026 } from './slugs.js'
import { topics2024, topics2026 } from '../resources/topics/topics.generations.js'
import { workflows2024, workflows2026 } from '../resources/workflows/workflows.generations.js'
import {
  workflowsV2_2024,
  workflowsV2_2026,
} from '../resources/workflows-v2/workflows-v2.generations.js'
import { messages2024, messages2026 } from '../resources/messages/messages.generations.js'
import {
  subscribers2024,
  subscribers2026,
} from '../resources/subscribers/subscribers.generations.js'
import { events2024, events2026 } from '../resources/events/events.generations.js'
import {
  subscribersV1_2024,
  subscribersV1_2026,
} from '../resources/subscribers/subscribers-v1.generations.js'
import {
  notifications2024,
  notifications2026,
} from '../resources/notifications/notifications.generations.js'
import {
  preferences2024,
  preferences2026,
} from '../resources/preferences/preferences.generations.js'
import { inbox2024, inbox2026 } from '../resources/inbox/inbox.generations.js'
import {
  subscriberChannels2024,
  subscriberChannels2026,
} from '../resources/subscribers/subscriber-channels.generations.js'
import {
  workflowEdits2024,
  workflowEdits2026,
} from '../resources/workflows/workflow-edits.generations.js'
import type { Generation, GenerationName } from './generation.js'

export * from './generation.js'

const MB = 1024 * 1024

const GENERATIONS: Record<GenerationName, Generation> = {
  '2026-08': {
    name: '2026-08',
    description: 'Novu Cloud and self-hosted releases since spring 2025 (upstream 3.19.0)',
    errors: filter2026,
    largeBodyLimit: 26 * MB,
    largeBodyPrefixes: ['/v2/workflows'],
    payloadTooLarge: () => bareHttpError(413),
    identifiers: identifiers2026,
    topics: topics2026,
    workflows: workflows2026,
    workflowsV2: workflowsV2_2026,
    messages: messages2026,
    subscribers: subscribers2026,
    subscribersV1: subscribersV1_2026,
    events: events2026,
    notifications: notifications2026,
    preferences: preferences2026,
    inbox: inbox2026,
    subscriberChannels: subscriberChannels2026,
    workflowEdits: workflowEdits2026,
  },
  '2024-10': {
    name: '2024-10',
    description: 'self-hosted Novu v2.0.x (source of October 2024)',
    errors: filter2024,
    largeBodyLimit: 20 * MB,
    largeBodyPrefixes: [],
    // Upstream answers 500 here (body-parser's error is no HttpException): see the README.
    payloadTooLarge: () =>
      objectError(413, { message: 'request entity too large', error: REASON[413] as string }),
    identifiers: identifiers2024,
    topics: topics2024,
    workflows: workflows2024,
    workflowsV2: workflowsV2_2024,
    messages: messages2024,
    subscribers: subscribers2024,
    subscribersV1: subscribersV1_2024,
    events: events2024,
    notifications: notifications2024,
    preferences: preferences2024,
    inbox: inbox2024,
    subscriberChannels: subscriberChannels2024,
    workflowEdits: workflowEdits2024,
  },
}

export const generationNamed = (name: GenerationName): Generation => GENERATIONS[name]
