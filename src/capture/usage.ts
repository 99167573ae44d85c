/**
 * The capture subcommand's options, as both `novu-mock --help` and `novu-mock capture --help`
 * show them. No imports: the start-up help must not load the capture code.
 */
export const DEFAULT_CAPTURE_FROM = 'https://api.novu.co'

const CAPTURE_OPTIONS: readonly { flag: string; help: string }[] = [
  { flag: '--out FILE', help: 'scenario file to write, .yaml/.yml or .json (required)' },
  {
    flag: '--from URL',
    help: `Novu API to read (default ${DEFAULT_CAPTURE_FROM}; EU: https://eu.api.novu.co)`,
  },
  { flag: '--key KEY', help: "the environment's secret key (default: NOVU_SECRET_KEY)" },
  { flag: '--api-generation G', help: 'capture as 2024-10 or 2026-08 (default: detected)' },
  { flag: '--subscribers N', help: 'capture at most N subscribers (default: all)' },
  { flag: '--no-subscribers', help: 'capture no subscribers' },
]

export const CAPTURE_FLAG_NAMES = [
  'out',
  'from',
  'key',
  'api-generation',
  'subscribers',
  'no-subscribers',
  'help',
]

export const captureOptionRows = (width = 21) =>
  CAPTURE_OPTIONS.map(({ flag, help }) => `  ${flag.padEnd(width)}${help}`)
