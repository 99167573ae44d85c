import { badRequest, CommandValidationError, type FieldViolation } from '../errors.js'
import { isEnum } from '../http/rules.js'
import { castString, castVariables, defined, ownedDocument } from './document-cast.js'
import { sanitizeContent } from './sanitize.js'
import { STEP_TYPES, type MessageTemplate, type WorkflowContext } from './workflows.types.js'
import { isObj, type Obj } from '../objects.js'

const stringField = (template: Obj, field: string) => {
  const value = template[field]
  return value === undefined || value === null || typeof value === 'string'
    ? undefined
    : `${field} must be a string`
}

/** Upstream's CreateMessageTemplateCommand checks, in its property order. */
export function checkTemplate(template: Obj) {
  const { type, cta } = template
  const violations: FieldViolation[] = []
  const violation = (property: string, messages: (string | undefined)[]) => {
    const found = messages.filter((m): m is string => m !== undefined)
    if (found.length) violations.push({ property, messages: found, value: template[property] })
  }
  violation('type', [
    type === undefined || type === null ? 'type should not be null or undefined' : undefined,
    isEnum(STEP_TYPES)(type, 'type'),
  ])
  violation('cta', [
    cta !== undefined && cta !== null && typeof cta !== 'object'
      ? 'nested property cta must be either object or array'
      : undefined,
  ])
  for (const property of ['feedId', 'layoutId', 'preheader', 'senderName'])
    violation(property, [stringField(template, property)])
  if (violations.length)
    throw new CommandValidationError('CreateMessageTemplateCommand', violations)
  if (isObj(cta) && cta.action === '') throw badRequest('Please provide a valid CTA action')
}

/** The message template document upstream creates for a step, as it is populated into the step. */
export function buildTemplate(ctx: WorkflowContext, template: Obj, now: string): MessageTemplate {
  const layoutId = template.layoutId
  return defined({
    _id: ctx.newId(),
    type: template.type,
    active: true,
    name: castString(template.name),
    subject: castString(template.subject),
    title: castString(template.title),
    content:
      template.contentType === 'editor' ? sanitizeContent(template.content) : template.content,
    contentType: castString(template.contentType),
    cta: isObj(template.cta) ? template.cta : undefined,
    preheader: template.preheader ?? undefined,
    senderName: template.senderName ?? undefined,
    actor: isObj(template.actor) ? template.actor : undefined,
    variables: castVariables(template.variables, ctx.newId),
    _feedId: template.feedId ? template.feedId : null,
    // Email steps without a layout get the environment's default one.
    _layoutId: template.type === 'email' && !layoutId ? ctx._layoutId : (layoutId ?? null),
    ...ownedDocument(ctx, now),
  }) as MessageTemplate
}
