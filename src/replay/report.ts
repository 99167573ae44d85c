import { z } from 'zod'

const StepReportSchema = z.object({
  /** 1-based, as the human report numbers steps. */
  index: z.number().int().min(1),
  name: z.string().optional(),
  method: z.string(),
  /** The path as sent, placeholders substituted. */
  path: z.string(),
  /** 0 when nothing answered: a network error, a step not sent, or a skipped admin step. */
  status: z.number().int(),
  durationMs: z.number().min(0),
  ok: z.boolean(),
  skipped: z.boolean().optional(),
  failures: z.array(z.string()),
})

/** What `novu-mock replay --report json` prints. */
export const ReplayReportSchema = z.object({
  name: z.string(),
  target: z.string(),
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  steps: z.array(StepReportSchema),
})

export type StepReport = z.infer<typeof StepReportSchema>
export type ReplayReport = z.infer<typeof ReplayReportSchema>

function formatStep(step: StepReport): string {
  const request = `${step.index} ${step.method} ${step.path}`
  const named = step.name ? `  # ${step.name}` : ''
  if (step.skipped) return `- ${request} skipped${named}`
  if (step.ok) return `✓ ${request} → ${step.status} (${Math.round(step.durationMs)} ms)${named}`
  const answer = step.status === 0 ? 'no response' : String(step.status)
  return `✗ ${request} → ${answer}: ${step.failures.join('; ')}${named}`
}

/**
 * The human report: one line per step, then `N passed, M failed` (`, K skipped` when K > 0).
 *
 * @example
 * process.stdout.write(formatReport(await runReplay(script, { target })) + '\n')
 * // ✓ 1 GET /v1/topics → 200 (3 ms)
 * // ✗ 2 POST /v1/workflows → 400: status: expected 201, got 400
 * // 1 passed, 1 failed
 */
export function formatReport(report: ReplayReport): string {
  const skipped = report.skipped > 0 ? `, ${report.skipped} skipped` : ''
  return [
    ...report.steps.map(formatStep),
    `${report.passed} passed, ${report.failed} failed${skipped}`,
  ].join('\n')
}
