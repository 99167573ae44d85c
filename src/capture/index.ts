export { captureCommand, CAPTURE_USAGE, type CaptureIo } from './command.js'
export { capture, type CaptureOptions, type Captured } from './capture.js'
export { CaptureError } from './client.js'
