import type { Generation } from '../generations/generation.js'
import type { Rng } from '../tenancy/prng.js'

export const STEP_TYPES = [
  'in_app',
  'email',
  'sms',
  'chat',
  'push',
  'digest',
  'trigger',
  'delay',
  'custom',
] as const

interface TemplateVariable {
  name: string
  /** String, Array or Boolean. */
  type: string
  _id: string
}

/**
 * A workflow's trigger: its identifier and variables.
 * @public Exported for the declaration files: rendered workflows name it.
 */
export interface Trigger {
  type: 'event'
  identifier: string
  variables: TemplateVariable[]
  reservedVariables: { type: string; variables: TemplateVariable[]; _id: string }[]
  subscriberVariables: { name: string; _id: string }[]
  _id: string
}

/** A message template document, populated into each step as `template`. */
export type MessageTemplate = Record<string, unknown> & { _id: string; type: string }

export interface WorkflowStep {
  _id: string
  _templateId: string
  _parentId: string | null
  template: MessageTemplate
  [field: string]: unknown
}

/** One flag per channel: five in the 2024-10 generation, six (with `tool`) since. */
type PreferenceSettings = Record<string, boolean>

export interface Workflow {
  _id: string
  name: string
  description?: string
  active: boolean
  type?: string
  draft: boolean
  critical: boolean
  isBlueprint: boolean
  /** Absent on a dashboard workflow made when the environment had no `General` group. */
  _notificationGroupId?: string
  tags: string[]
  triggers: Trigger[]
  steps: WorkflowStep[]
  preferenceSettings: PreferenceSettings
  _environmentId: string
  _organizationId: string
  _creatorId: string
  deleted: boolean
  createdAt: string
  updatedAt: string
  __v: number
  [field: string]: unknown
}

/** What building a workflow needs from its environment. */
export interface WorkflowContext {
  _environmentId: string
  _organizationId: string
  _userId: string
  _layoutId: string
  generation: Generation
  /** Workflows the environment may hold where its generation limits them; 0: no limit. */
  maxWorkflows: number
  newId: () => string
  rng: Rng
  identifierTaken: (identifier: string) => boolean
  /** The live workflows the environment holds, for upstream's workflow limit. */
  workflowCount: () => number
  /** The blueprint path: the environment's group of that name, created when missing. */
  groupNamed?: (name: string) => string
}
