export { captureCommand } from './command.js'
