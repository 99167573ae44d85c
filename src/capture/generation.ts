/**
 * Which Novu server the capture reads: 2026-08 where /v2/workflows answers API keys, 2024-10
 * where it refuses them (that server kept the route for the dashboard: 401 "API endpoint not
 * available") or has no such route (404). Asked after the key was accepted elsewhere, so a 401
 * here is the route's refusal, not the key's.
 */
import type { GenerationName } from '../generations/generation.js'
import type { CaptureClient } from './client.js'

export async function detectGeneration(client: CaptureClient): Promise<GenerationName> {
  const { status } = await client.get('/v2/workflows?limit=1', [401, 403, 404])
  return status === 200 ? '2026-08' : '2024-10'
}
