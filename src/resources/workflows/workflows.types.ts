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

export interface TemplateVariable {
  name: string
  /** String, Array or Boolean. */
  type: string
  _id: string
}

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

export interface PreferenceSettings {
  email: boolean
  sms: boolean
  in_app: boolean
  chat: boolean
  push: boolean
}

export interface Workflow {
  _id: string
  name: string
  description?: string
  active: boolean
  type?: string
  draft: boolean
  critical: boolean
  isBlueprint: boolean
  _notificationGroupId: string
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
