import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMock, type RunningMock } from '../src/server.js'
import type { GenerationName } from '../src/generations/generation.js'

/** The only key a strict mock knows; every other key gets upstream's `401 API Key not found`. */
export const DECLARED_KEY = 'declared-key'

/**
 * Starts a mock on the default data that refuses undeclared API keys, the way the real API
 * does. The scenario is a file because that is how a user declares strict mode.
 */
export async function startStrictMock(): Promise<RunningMock> {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-sdk-'))
  const file = join(dir, 'strict.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'strict',
      fixture: 'default',
      environments: { strict: true, keys: [{ apiKey: DECLARED_KEY }] },
    })
  )
  try {
    return await startMock({
      apiGeneration: '2024-10',
      port: 0,
      scenario: file,
      logLevel: 'silent',
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A fresh API key, hence a fresh environment built from the default data, for each call. */
export function keyFactory(prefix: string): () => string {
  let n = 0
  return () => `${prefix}-${++n}`
}

/** The messages of one transaction as the mock lists them, read with a plain fetch. */
export async function listTransaction(mock: RunningMock, apiKey: string, transactionId: string) {
  const res = await fetch(
    `${mock.url}/v1/messages?transactionId=${encodeURIComponent(transactionId)}`,
    {
      headers: { Authorization: `ApiKey ${apiKey}` },
    }
  )
  if (res.status !== 200) throw new Error(`GET /v1/messages answered ${res.status}`)
  return (await res.json()) as {
    page: number
    totalCount: number
    hasMore: boolean
    pageSize: number
    data: { channel: string; transactionId: string }[]
  }
}

/** One mock per generation on the default data, for SDK tests that run in both. */
export function mocksPerGeneration(generations: readonly GenerationName[]) {
  const mocks = new Map<string, RunningMock>()
  return {
    async start() {
      for (const apiGeneration of generations)
        mocks.set(apiGeneration, await startMock({ apiGeneration, port: 0, logLevel: 'silent' }))
    },
    async close() {
      for (const mock of mocks.values()) await mock.close()
    },
    url: (generation: string) => (mocks.get(generation) as RunningMock).url,
  }
}
