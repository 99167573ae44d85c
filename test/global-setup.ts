import { startMock } from 'novu-mock'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    novuMockUrl: string
  }
}

/** One mock for the whole run, as the README's "Use in tests" shows. */
export default async function setup(project: TestProject) {
  const mock = await startMock({ port: 0, logLevel: 'silent' })
  project.provide('novuMockUrl', mock.url)
  return () => mock.close()
}
