import { afterEach } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import type { MockOptionsInput } from '../src/config.js'

const running: RunningMock[] = []

/** A mock on a free port, closed after the test that started it. */
export async function startTestMock(options: MockOptionsInput = {}): Promise<RunningMock> {
  const mock = await startMock({
    apiGeneration: '2024-10',
    port: 0,
    logLevel: 'silent',
    ...options,
  })
  running.push(mock)
  return mock
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((mock) => mock.close()))
})

/** The URL of a port nothing listens on: a mock that was started and closed again. */
export async function closedTarget(): Promise<string> {
  const mock = await startMock({ apiGeneration: '2024-10', port: 0, logLevel: 'silent' })
  await mock.close()
  return mock.url
}

/** Collects what a command writes, for `replayCommand(argv, io)`. */
export function captureIo() {
  const out = { stdout: '', stderr: '' }
  const io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
  }
  return { io, out }
}
