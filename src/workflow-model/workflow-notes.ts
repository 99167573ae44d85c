import type { Environment } from '../tenancy/environment.js'

/**
 * The words of the notes a workflow create leaves in its journal entry and the log
 * (http/notes.ts): what upstream changed of what the client sent, and what to do about it.
 */

const SCENARIO_HINT =
  'start the mock from the empty scenario (--scenario empty, startMock({ scenario: "empty" }))'

/** A note and the advice it gives, the same for every create that collides on the same name. */
export interface TakenNote {
  note: string
  advice: string
}

/** A create whose `workflowId` was taken: it was suffixed, and triggers of the asked one reach the other. */
export function takenWorkflowIdNote(asked: string, given: string): TakenNote | undefined {
  if (asked === given) return undefined
  const note = `workflowId ${JSON.stringify(asked)} is taken in this environment (by a workflow the scenario seeded or one created earlier), so the new workflow was created as ${JSON.stringify(given)}, as Novu does. Triggers of ${JSON.stringify(asked)} reach the other workflow: trigger ${JSON.stringify(given)}, pick another workflowId, or ${SCENARIO_HINT}.`
  return { note, advice: `taken workflowId ${asked}` }
}

/**
 * A v1 create whose name slugs to a taken identifier: upstream suffixes it. Only a suffixed
 * slug counts (a name that slugs to nothing gets a random identifier, taken or not).
 */
export function takenNameNote(
  env: Environment,
  name: unknown,
  given: string
): TakenNote | undefined {
  if (typeof name !== 'string') return undefined
  // A fixed source of randomness: the environment's own must not move for a note.
  const slug = env.generation.identifiers.slug(name, () => 0)
  if (!slug || !given.startsWith(`${slug}-`)) return undefined
  const note = `The name ${JSON.stringify(name.slice(0, 100))} gives the trigger identifier ${JSON.stringify(slug)}, which is taken in this environment (by a workflow the scenario seeded or one created earlier), so the new workflow's identifier is ${JSON.stringify(given)}, as Novu does. Triggers of ${JSON.stringify(slug)} reach the other workflow: trigger ${JSON.stringify(given)}, rename the workflow, or ${SCENARIO_HINT}.`
  return { note, advice: `taken identifier ${slug}` }
}

/** An email step whose HTML body the block editor emptied (see valuesFor in workflows-v2). */
export function emptiedEmailBodyNote(index: number): string {
  return `steps[${index}].controlValues.body was stored empty: under editorType "block" (the default, which @novu/api sends when it is left out) the body must be a Maily JSON document, and Novu empties any other. For an HTML body, send controlValues.editorType: "html".`
}
