export {
  ReplayScriptSchema,
  ReplayStepSchema,
  type ReplayScript,
  type ReplayStep,
  type ReplayRequest,
  type ReplayExpect,
  type ReplayAdmin,
} from './schema.js'
export { ReplayReportSchema, formatReport, type ReplayReport, type StepReport } from './report.js'
export { runReplay, type ReplayOptions } from './runner.js'
export {
  loadReplayScript,
  parseReplayScript,
  ReplayScriptError,
  type ReplayScriptProblem,
} from './load.js'
export { replayCommand, REPLAY_USAGE, type CommandIo } from './command.js'
export { journalToScript, scriptToYaml } from './export.js'
export { matchPartial } from './match.js'
