import type { LOG_LEVELS } from './config.js'

export type LogLevel = (typeof LOG_LEVELS)[number]
const RANK: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 }

export interface Logger {
  level: LogLevel
  enabled(level: Exclude<LogLevel, 'silent'>): boolean
  log(level: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>): void
}

/** One JSON object per line on stderr, so stdout stays free for the start-up banner. */
export function createLogger(
  level: LogLevel,
  write = (line: string) => process.stderr.write(line)
): Logger {
  return {
    level,
    enabled: (at) => RANK[at] <= RANK[level],
    log(at, message, fields = {}) {
      if (RANK[at] > RANK[level]) return
      write(
        JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields }) +
          '\n'
      )
    },
  }
}
