import { badRequest, objectError } from '../errors.js'

/** Upstream's 400s when an environment or a workflow is over its resource limit. */
export const limitErrors = {
  steps: (max: number, got: number) =>
    objectError(400, {
      message: `Workflow steps limit exceeded. Maximum allowed steps is ${max}, but got ${got} steps.`,
      providedStepsCount: got,
      maxSteps: max,
    }),
  workflows: (count: number, limit: number) =>
    objectError(400, {
      message: 'Workflow limit exceeded. Please contact us to support more workflows.',
      currentCount: count,
      limit,
    }),
  identifier: (name: string) =>
    badRequest(
      `Unable to generate a unique identifier. Please provide a different workflow name.${name}`
    ),
}
