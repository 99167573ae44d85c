import { z } from 'zod'
import {
  badRequest,
  CommandValidationError,
  httpError,
  objectError,
  type ApiError,
} from '../../errors.js'
import { isArray, isMongoId, isString, maxLength, nestedObjects } from '../../http/rules.js'
import { field } from '../../http/validate.js'
import type { Obj } from '../../objects.js'
import type { WorkflowInput } from './workflow-builder.js'
import { limitViolations } from './workflows.generations.js'
import { lazySchema } from '../../lazy-schema.js'

const optional = { optional: true } as const

/** Upstream's UpdateWorkflowRequestDto (the same in both generations), in its declaration order. */
export const UpdateWorkflowBodySchema = lazySchema(() =>
  z.object({
    name: field<string>('name', [isString], { type: 'string' }, optional),
    tags: field<string[]>(
      'tags',
      [isArray],
      { type: 'array', items: { type: 'string' } },
      optional
    ),
    description: field<string>(
      'description',
      [isString, maxLength(300)],
      { type: 'string', maxLength: 300 },
      optional
    ),
    identifier: field<string>('identifier', [isString], { type: 'string' }, optional),
    steps: field<unknown[]>('steps', [isArray, nestedObjects], { type: 'array' }, optional),
    notificationGroupId: field<string>(
      'notificationGroupId',
      [isMongoId],
      { type: 'string' },
      optional
    ),
    critical: z.unknown().optional().meta({ type: 'boolean' }),
    preferenceSettings: z.unknown().optional().meta({ type: 'object' }),
    data: z.unknown().optional().meta({ type: 'object' }),
  })
)

export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBodySchema>

const idViolation = (command: string, property: string, id: string) =>
  new CommandValidationError(command, [
    { property, messages: [`${property} must be a mongodb id`], value: id },
  ])

/** How PUT and DELETE /v1/workflows/:id differ between generations. */
export interface WorkflowEditRules {
  updateCommand: string
  /** The update command's checks beyond the DTO (2026's name, description and tag limits). */
  updateViolations(body: Obj): Error | undefined
  /** 2024-10 refuses an update that sets nothing; 2026's always sets who updated. */
  refusesEmptyUpdate: boolean
  updateUnknown(id: string): ApiError
  deleteUnknown(id: string): ApiError
}

export const workflowEdits2024: WorkflowEditRules = {
  updateCommand: 'UpdateWorkflowCommand',
  updateViolations: () => undefined,
  refusesEmptyUpdate: true,
  updateUnknown: (id) => httpError(404, `Notification template with id ${id} not found`),
  deleteUnknown: (id) => badRequest(`Could not find workflow with id ${id}`),
}

const workflowNotFound = (id: string) =>
  objectError(404, { message: 'Workflow cannot be found', workflowId: id })

export const workflowEdits2026: WorkflowEditRules = {
  updateCommand: 'UpdateWorkflowCommandV0',
  updateViolations(body) {
    const violations = limitViolations(body as unknown as WorkflowInput)
    return violations.length
      ? new CommandValidationError('UpdateWorkflowCommandV0', violations)
      : undefined
  },
  refusesEmptyUpdate: false,
  updateUnknown: workflowNotFound,
  deleteUnknown: workflowNotFound,
}

export const updateIdViolation = (rules: WorkflowEditRules, id: string) =>
  idViolation(rules.updateCommand, 'id', id)
export const deleteIdViolation = (id: string) =>
  idViolation('DeleteNotificationTemplateCommand', 'templateId', id)
