// Start-up of several builds or settings, alternated start by start, and each one's ratio to the
// first, start by start (a busy moment slows the whole round, not one side): spawn to the first
// 200 of GET /v1/topics and the CPU time until then, as bench/startup.mjs measures one build.
//   node bench/startup-paired.mjs N LABEL=SCRIPT[,NAME:VALUE...] ...
// SCRIPT is a CLI (dist/novu-mock.mjs of any build) or bench/bare-start.mjs; NAME:VALUE sets an
// environment variable, and RM:PATH removes PATH before each start (a cache, for a cold start):
//   node bench/startup-paired.mjs 12 before=../old/dist/novu-mock.mjs after=dist/novu-mock.mjs \
//     cold=dist/novu-mock.mjs,RM:node_modules/.cache/novu-mock bare=bench/bare-start.mjs
import { rmSync } from 'node:fs'
import { summary } from './harness.mjs'
import { startScript } from './startup.mjs'

const [count, ...specs] = process.argv.slice(2)
const variants = specs.map((spec) => {
  const [label, rest = ''] = spec.split(/=(.*)/s)
  const [script, ...settings] = rest.split(',')
  const env = Object.fromEntries(settings.map((setting) => setting.split(/:(.*)/s).slice(0, 2)))
  return { label, script, env, runs: [] }
})
if (variants.length === 0 || !Number(count)) {
  console.error('usage: node bench/startup-paired.mjs N LABEL=SCRIPT[,NAME:VALUE...] ...')
  process.exit(2)
}

const startVariant = ({ script, env: { RM, ...env } }) => {
  if (RM) rmSync(RM, { recursive: true, force: true })
  return startScript(script, env)
}

for (const variant of variants) await startVariant(variant)
for (let i = 0; i < Number(count); i++)
  for (const variant of variants) variant.runs.push(await startVariant(variant))

const [first] = variants
for (const { label, runs } of variants) {
  const median = (key) => summary(runs.map((run) => Math.round(run[key]))).median
  const paired = (key) =>
    summary(runs.map((run, i) => run[key] / first.runs[i][key])).median.toFixed(2)
  console.log(
    `${label.padEnd(8)} CPU ${median('cpu')} ms, first 200 at ${median('topics')} ms` +
      ` (listening ${median('listening')}); ÷ ${first.label}, start by start: CPU ${paired('cpu')}, first 200 ${paired('topics')}`
  )
}
