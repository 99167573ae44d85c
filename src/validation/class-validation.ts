/**
 * A small model of class-validator 0.15, the library behind upstream's DTOs and commands, for
 * the nested bodies of /v2/workflows: which checks run (optional and conditional properties,
 * `@IsDefined` first, then the custom checks in decorator order, then nested objects), and how
 * Nest's ValidationPipe and upstream's `BaseCommand` each flatten the resulting tree.
 */

import type { Obj } from '../objects.js'

/** One class-validator constraint: its type name (constraints are keyed by it) and message. */
export interface Constraint {
  name: string
  /** `{ each: true }`: an array's items are tested one by one, any other value as a whole. */
  each?: boolean
  test: (value: unknown) => boolean
  message: (property: string, value: unknown) => string
}

interface PropertyRules {
  property: string
  /** `@IsOptional()`: a null or undefined value skips every check. */
  optional?: boolean
  /** `@ValidateIf()`: the checks run only when this holds. */
  when?: (value: unknown) => boolean
  /** `@IsDefined()`, which class-validator runs before any other check. */
  defined?: boolean
  /** The custom checks, in the order class-validator runs them (the decorators bottom up). */
  checks?: readonly Constraint[]
  /**
   * `@ValidateNested()`: the rules of the class a nested object was transformed into (its
   * `@Type`), or undefined for a plain object, which has none.
   */
  nested?: (value: Obj) => ClassRules | undefined
  /** `@ValidateNested({ each: true })`, which only changes the message for a non-object. */
  nestedEach?: boolean
}

/** A class's properties: its own first, then its parent's, as class-validator collects them. */
export type ClassRules = readonly PropertyRules[]

export interface ValidationNode {
  property: string
  value: unknown
  /** Messages keyed by constraint name, in insertion order (a later one replaces an earlier). */
  constraints: Map<string, string>
  children: ValidationNode[]
}

const node = (property: string, value: unknown): ValidationNode => ({
  property,
  value,
  constraints: new Map(),
  children: [],
})

const isEmptyNode = (n: ValidationNode): boolean =>
  n.constraints.size === 0 && n.children.every(isEmptyNode)

/**
 * Every failing property of an object, as class-validator's `validateSync` reports them. A
 * node is made only for a property that fails: most pass, and each node is a Map and an array.
 */
export function validateObject(object: Obj, rules: ClassRules): ValidationNode[] {
  const out: ValidationNode[] = []
  for (const rule of rules) {
    const error = validateProperty(object[rule.property], rule)
    if (error && !isEmptyNode(error)) out.push(error)
  }
  return out
}

/** The property's node, if anything failed. */
function validateProperty(value: unknown, rule: PropertyRules): ValidationNode | undefined {
  if (rule.optional && (value === null || value === undefined)) return undefined
  if (rule.when && !rule.when(value)) return undefined
  let error: ValidationNode | undefined
  if (rule.defined && (value === null || value === undefined))
    (error ??= node(rule.property, value)).constraints.set(
      'isDefined',
      `${rule.property} should not be null or undefined`
    )
  for (const check of rule.checks ?? []) {
    const passes =
      check.each && Array.isArray(value)
        ? value.every((item) => check.test(item))
        : check.test(value)
    if (!passes)
      (error ??= node(rule.property, value)).constraints.set(
        check.name,
        check.message(rule.property, value)
      )
  }
  if (rule.nested && value !== undefined) error = validateNested(value, rule, error)
  return error
}

/**
 * Array items become children named by index; a non-object names the declared property. Gives
 * the property's node (`error`, or one made for a failure here), if anything failed.
 */
function validateNested(
  value: unknown,
  rule: PropertyRules,
  error: ValidationNode | undefined
): ValidationNode | undefined {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const child = validateNested(item, rule, undefined)
      if (child && !isEmptyNode(child)) {
        child.property = String(index)
        child.value = item
        ;(error ??= node(rule.property, value)).children.push(child)
      }
    })
    return error
  }
  if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
    const rules = rule.nested?.(value as Obj)
    const failing = rules ? validateObject(value as Obj, rules) : []
    if (failing.length) (error ??= node(rule.property, value)).children.push(...failing)
    return error
  }
  const message = `${eachPrefix(rule.nestedEach)}nested property ${rule.property} must be either object or array`
  ;(error ??= node(rule.property, value)).constraints.set('nestedValidation', message)
  return error
}

/**
 * Nest's ValidationPipe message list: a failing child's messages carry its parent path
 * (`steps.0.name must be a string`), and a property with children reports only theirs.
 */
export function pipeMessages(errors: ValidationNode[]): string[] {
  const flat: ValidationNode[] = []
  const mapChildren = (error: ValidationNode, parentPath?: string): ValidationNode[] => {
    if (!error.children.length) return [error]
    const path = parentPath ? `${parentPath}.${error.property}` : error.property
    const out: ValidationNode[] = []
    for (const item of error.children) {
      if (item.children.length) out.push(...mapChildren(item, path))
      const constraints = new Map<string, string>()
      for (const [name, message] of item.constraints) constraints.set(name, `${path}.${message}`)
      out.push({ ...item, constraints })
    }
    return out
  }
  for (const error of errors) flat.push(...mapChildren(error))
  return flat.flatMap((e) => [...e.constraints.values()])
}

export interface KeyedViolation {
  property: string
  messages: string[]
  value: unknown
}

/** `BaseCommand.create`'s map: one entry per failing path (`workflowDto.steps.0.name`). */
export function commandViolations(errors: ValidationNode[], prefix = ''): KeyedViolation[] {
  const result = new Map<string, KeyedViolation>()
  for (const error of errors) {
    const key = prefix ? `${prefix}.${error.property}` : error.property
    if (error.constraints.size)
      result.set(key, {
        property: key,
        messages: [...error.constraints.values()],
        value: error.value,
      })
    for (const child of commandViolations(error.children, key)) {
      const found = result.get(child.property)
      if (found) found.messages = found.messages.concat(child.messages)
      else result.set(child.property, child)
    }
  }
  return [...result.values()]
}

/* ---------------------------------------------------------------------------------------------
 * The constraints upstream's classes use, with class-validator's default messages.
 */

const eachPrefix = (each?: boolean) => (each ? 'each value in ' : '')

/** validator.js's isLength: surrogate pairs and variation selectors count as nothing extra. */
function validatorLength(text: string): number {
  const presentation = text.match(/(\uFE0F|\uFE0E)/g) ?? []
  const surrogates = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? []
  return text.length - presentation.length - surrogates.length
}

export const IsString = (each?: boolean): Constraint => ({
  name: 'isString',
  each,
  test: (v) => typeof v === 'string',
  message: (p) => `${eachPrefix(each)}${p} must be a string`,
})

export const IsBoolean = (): Constraint => ({
  name: 'isBoolean',
  test: (v) => typeof v === 'boolean',
  message: (p) => `${p} must be a boolean value`,
})

export const IsArray = (): Constraint => ({
  name: 'isArray',
  test: (v) => Array.isArray(v),
  message: (p) => `${p} must be an array`,
})

export const IsObject = (): Constraint => ({
  name: 'isObject',
  test: (v) =>
    v !== null && (typeof v === 'object' || typeof v === 'function') && !Array.isArray(v),
  message: (p) => `${p} must be an object`,
})

export const IsNotEmpty = (): Constraint => ({
  name: 'isNotEmpty',
  test: (v) => v !== '' && v !== null && v !== undefined,
  message: (p) => `${p} should not be empty`,
})

export const Matches = (pattern: RegExp, message: (property: string) => string): Constraint => ({
  name: 'matches',
  test: (v) => typeof v === 'string' && pattern.test(v),
  message,
})

export const IsEnum = (values: readonly string[], each?: boolean): Constraint => ({
  name: 'isEnum',
  each,
  test: (v) => values.includes(v as string),
  message: (p) =>
    `${eachPrefix(each)}${p} must be one of the following values: ${values.join(', ')}`,
})

/** class-validator's Length: validator.js measures, the message compares the JS length. */
export const Length = (min: number, max: number, each?: boolean): Constraint => ({
  name: 'isLength',
  each,
  test: (v) => {
    if (typeof v !== 'string') return false
    const length = validatorLength(v)
    return length >= min && length <= max
  },
  message: (p, value) => {
    const prefix = eachPrefix(each)
    // JavaScript's comparisons, as the message builder makes them: undefined < n is false.
    const length = (value as { length?: number } | null | undefined)?.length as number
    if (!value || length < min)
      return `${prefix}${p} must be longer than or equal to ${min} characters`
    if (length > max) return `${prefix}${p} must be shorter than or equal to ${max} characters`
    return `${prefix}${p} must be longer than or equal to ${min} and shorter than or equal to ${max} characters`
  },
})

export const ArrayMaxSize = (max: number, message: (p: string) => string): Constraint => ({
  name: 'arrayMaxSize',
  test: (v) => Array.isArray(v) && v.length <= max,
  message,
})

export const ArrayUnique = (): Constraint => ({
  name: 'arrayUnique',
  test: (v) => Array.isArray(v) && new Set(v).size === v.length,
  message: (p) => `All ${p}'s elements must be unique`,
})

export const IsInt = (): Constraint => ({
  name: 'isInt',
  test: (v) => typeof v === 'number' && Number.isInteger(v),
  message: (p) => `${p} must be an integer number`,
})

export const IsNumber = (): Constraint => ({
  name: 'isNumber',
  test: (v) => typeof v === 'number' && Number.isFinite(v),
  message: (p) => `${p} must be a number conforming to the specified constraints`,
})

export const Min = (n: number): Constraint => ({
  name: 'min',
  test: (v) => typeof v === 'number' && v >= n,
  message: (p) => `${p} must not be less than ${n}`,
})

export const Max = (n: number): Constraint => ({
  name: 'max',
  test: (v) => typeof v === 'number' && v <= n,
  message: (p) => `${p} must not be greater than ${n}`,
})
