/**
 * Reads a Novu environment through its public API and builds the scenario that recreates it:
 * its notification groups, workflows, topics with their subscriptions, subscribers and tenants,
 * with the generation of the server it read.
 */
import type { GenerationName } from '../generations/generation.js'
import type { Obj } from '../objects.js'
import { createClient, type ClientOptions } from './client.js'
import { detectGeneration } from './generation.js'
import type { Progress } from './progress.js'
import {
  readGroups,
  readSubscribers,
  readTenants,
  readTopics,
  readWorkflows,
  type ReadContext,
} from './readers.js'
import { newRedaction, redactSecrets, type Redaction } from './redact.js'

export interface CaptureOptions extends ClientOptions {
  /** The generation to capture as; absent: detected from the server's answers. */
  generation?: GenerationName
  /** Subscribers to read at most; 0 reads none. Absent: every one. */
  subscribers?: number
  /** The scenario's name (the file's), when it is a valid one. */
  name?: string
  progress: Progress
}

export interface Captured {
  scenario: Obj
  generation: GenerationName
  counts: Record<string, number>
  redaction: Redaction
}

export async function capture(options: CaptureOptions): Promise<Captured> {
  const client = createClient({
    ...options,
    onWait: (path, ms, attempt) =>
      options.progress.note(
        `  rate limited on GET ${path}: waiting ${(ms / 1000).toFixed(ms < 1000 ? 1 : 0)} s as Retry-After asks (retry ${attempt})`
      ),
  })
  const { progress } = options
  const ctx: ReadContext = {
    client,
    generation: options.generation ?? '2026-08',
    progress: (kind, count, total) => progress.update(kind, count, total),
  }
  // The groups first: every server has them, so a bad key or URL shows on the first request.
  const notificationGroups = await readGroups(ctx)
  progress.done('notification groups', notificationGroups.length)
  ctx.generation = options.generation ?? (await detectGeneration(client))
  progress.note(`  server answers as Novu ${ctx.generation}`)
  const workflows = await readWorkflows(ctx)
  progress.done('workflows', workflows.length)
  const topics = await readTopics(ctx)
  progress.done('topics', topics.length)
  const subscribers =
    options.subscribers === 0 ? [] : await readSubscribers(ctx, options.subscribers)
  progress.done('subscribers', subscribers.length)
  const tenants = await readTenants(ctx)
  progress.done('tenants', tenants?.length ?? 0)
  const redaction = newRedaction()
  const data = redactSecrets(
    {
      notificationGroups,
      workflows,
      topics,
      subscribers,
      ...(tenants?.length ? { tenants } : {}),
    },
    redaction
  ) as Obj
  const scenario: Obj = {
    ...(options.name ? { name: options.name } : {}),
    description: `Captured by novu-mock capture from ${client.base} (Novu ${ctx.generation}). Secrets are replaced by placeholders.`,
    apiGeneration: ctx.generation,
    data,
  }
  const counts = {
    'notification groups': notificationGroups.length,
    workflows: workflows.length,
    topics: topics.length,
    subscribers: subscribers.length,
    tenants: tenants?.length ?? 0,
  }
  return { scenario, generation: ctx.generation, counts, redaction }
}
