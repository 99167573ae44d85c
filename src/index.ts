export { createMock, type Mock } from './mock.js'
export { startMock, type RunningMock } from './server.js'
export { MockOptionsSchema, type MockOptions, type MockOptionsInput } from './config.js'
