import { describe, expect, test } from 'vitest'
import { controlSchemasFor } from './control-schemas.js'
import { schemaErrors } from '../../validation/json-schema-check.js'
import { isValidJsonSchema } from './payload-schema.js'
import { buildStepIssues, dashboardSanitize } from './step-issues.js'
import { decodeBase62, encodeBase62, parseSlugId } from './slug-id.js'
import { isPropertyAllowed, buildVariableSchema } from './variables.js'

// The pieces of /v2/workflows that stand in for upstream libraries (base-x, Ajv, the
// sanitiser), checked against values upstream's own code produced.

describe('slugs', () => {
  test('an id encodes to the base62 text upstream puts in a slug', () => {
    expect(encodeBase62('68b5a1c2d3e4f5a6b7c8d9e0')).toBe('g90z2yIFnyb6NHKy')
  })

  test('leading zero bytes encode as leading zeros and decode back', () => {
    const id = '00000a0b0c0d0e0f10111213'
    expect(decodeBase62(encodeBase62(id))).toBe(id)
  })

  test('a workflow slug decodes to its id', () => {
    expect(parseSlugId('welcome-email_wf_g90z2yIFnyb6NHKy')).toBe('68b5a1c2d3e4f5a6b7c8d9e0')
  })

  test('a step slug prefix decodes too, the legacy stp_ among them', () => {
    expect(parseSlugId('x_st_g90z2yIFnyb6NHKy')).toBe('68b5a1c2d3e4f5a6b7c8d9e0')
    expect(parseSlugId('x_stp_g90z2yIFnyb6NHKy')).toBe('68b5a1c2d3e4f5a6b7c8d9e0')
  })

  test('an identifier without a known prefix or name stays as it is', () => {
    expect(parseSlugId('exerciseReminder')).toBe('exerciseReminder')
    expect(parseSlugId('_wf_g90z2yIFnyb6NHKy')).toBe('_wf_g90z2yIFnyb6NHKy')
    expect(parseSlugId('welcome-email_xx_g90z2yIFnyb6NHKy')).toBe(
      'welcome-email_xx_g90z2yIFnyb6NHKy'
    )
  })

  test('a slug whose tail is no base62 id stays as it is', () => {
    expect(parseSlugId('welcome-email_wf_!!!!!!!!!!!!!!!!')).toBe(
      'welcome-email_wf_!!!!!!!!!!!!!!!!'
    )
  })
})

describe('control schema check (Ajv with allErrors)', () => {
  test('an in-app redirect that is no URL fails both branches, then anyOf', () => {
    const errors = schemaErrors(controlSchemasFor('in_app').schema, {
      body: 'B',
      redirect: { url: 'bad url', target: '_blank' },
    })
    expect(errors.map((e) => [e.keyword, e.instancePath, e.params.missingProperty])).toEqual([
      ['required', '', 'subject'],
      ['pattern', '/redirect/url', undefined],
      ['pattern', '/redirect/url', undefined],
      ['anyOf', '', undefined],
    ])
  })

  test('a delay without type fails every branch of the discriminated union', () => {
    const errors = schemaErrors(controlSchemasFor('delay').schema, { amount: 1, unit: 'minutes' })
    expect(
      errors.map((e) => [e.keyword, e.params.missingProperty ?? e.params.additionalProperty])
    ).toEqual([
      ['required', 'type'],
      ['required', 'type'],
      ['required', 'cron'],
      ['additionalProperties', 'amount'],
      ['additionalProperties', 'unit'],
      ['required', 'type'],
      ['required', 'dynamicKey'],
      ['additionalProperties', 'amount'],
      ['additionalProperties', 'unit'],
      ['anyOf', undefined],
    ])
  })

  test('object keywords come in Ajv order: required, additionalProperties, then properties', () => {
    const errors = schemaErrors(controlSchemasFor('email').schema, {
      preheader: 'x'.repeat(85),
      foo: 1,
    })
    expect(errors.map((e) => [e.keyword, e.message])).toEqual([
      ['required', "must have required property 'subject'"],
      ['additionalProperties', 'must NOT have additional properties'],
      ['maxLength', 'must NOT have more than 84 characters'],
    ])
  })

  test('a type list is reported up front, a lone type with its own keywords in its group', () => {
    const errors = schemaErrors(controlSchemasFor('email').schema, { subject: 5, layoutId: 5 })
    expect(errors.map((e) => [e.instancePath, e.message])).toEqual([
      ['/subject', 'must be string'],
      ['/layoutId', 'must be string,null'],
    ])
  })
})

describe('uniqueItems (Ajv 8, checked against Ajv itself)', () => {
  const duplicate = (schema: Record<string, unknown>, data: unknown[]) =>
    schemaErrors({ type: 'array', uniqueItems: true, ...schema }, data)
      .filter((e) => e.keyword === 'uniqueItems')
      .map((e) => [e.params, e.message])

  test('without item types the last repeated item is named with its nearest twin', () => {
    expect(duplicate({}, [1, 1, 1])).toEqual([
      [{ i: 2, j: 1 }, 'must NOT have duplicate items (items ## 1 and 2 are identical)'],
    ])
    expect(duplicate({}, [{ a: 1, b: [2] }, 'x', { b: [2], a: 1 }, 'x'])).toEqual([
      [{ i: 3, j: 1 }, 'must NOT have duplicate items (items ## 1 and 3 are identical)'],
    ])
  })

  test('objects differing in a key, and 1 beside "1", are not duplicates', () => {
    expect(duplicate({}, [{ a: 1 }, { a: 1, b: 2 }, 1, '1', null, 'null', [1], ['1']])).toEqual([])
  })

  test('with scalar item types Ajv walks down once and names the first item above', () => {
    expect(duplicate({ items: { type: 'string' } }, ['a', 'b', 'a', 'b'])).toEqual([
      [{ i: 1, j: 3 }, 'must NOT have duplicate items (items ## 3 and 1 are identical)'],
    ])
    expect(duplicate({ items: { type: ['string', 'number'] } }, [1, '1', true, true])).toEqual([])
  })

  test('100,000 distinct numbers pass, and a repeat after them is found', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => i)
    expect(duplicate({}, values)).toEqual([])
    expect(duplicate({}, [...values, 99_999])).toEqual([
      [
        { i: 100_000, j: 99_999 },
        'must NOT have duplicate items (items ## 99999 and 100000 are identical)',
      ],
    ])
  })
})

describe('payload schemas', () => {
  test.each([
    ['an object schema', { type: 'object', properties: { a: { type: 'string' } } }, true],
    ['a boolean schema', true, true],
    ['a draft-07 $schema', { $schema: 'http://json-schema.org/draft-07/schema#' }, true],
    ['an unknown type', { type: 'invalid-type', properties: 'not-an-object' }, false],
    ['a reference that resolves nowhere', { $ref: '#/definitions/missing' }, false],
    ['another draft', { $schema: 'https://json-schema.org/draft/2020-12/schema' }, false],
    ['an empty enum', { enum: [] }, false],
    ['a pattern that is no regular expression', { pattern: '[a-' }, false],
    ['nullable without a type', { nullable: true }, false],
    ['an array', [], false],
    ['duplicate required names', { required: ['a', 'a'] }, false],
  ])('%s: valid is %s', (_label, schema, valid) => {
    expect(isValidJsonSchema(schema)).toBe(valid)
  })

  test('a schema nested a thousand levels deep is invalid, as Ajv overflows on it', () => {
    let schema: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 1001; i++) schema = { type: 'object', properties: { a: schema } }
    expect(isValidJsonSchema(schema)).toBe(false)
  })
})

describe('sanitising and issues', () => {
  test('an email subject left empty becomes a space, which the schema accepts', () => {
    expect(dashboardSanitize({ subject: '' }, 'email')).toEqual({
      subject: ' ',
      body: '{"type":"doc","content":[{"type":"paragraph"}]}',
    })
  })

  test('an in-app redirect url that is no string makes the sanitiser keep the values as sent', () => {
    const values = { body: 'B', redirect: { url: 5 }, extra: 1 }
    expect(dashboardSanitize(values, 'in_app')).toBe(values)
  })

  test('a digest amount sent as text is read as a number', () => {
    expect(dashboardSanitize({ amount: '5', unit: 'hours' }, 'digest')).toEqual({
      amount: 5,
      unit: 'hours',
    })
  })

  test('a schema issue and a Liquid issue on one path merge item by item', () => {
    const variables = buildVariableSchema({
      previousSteps: [],
      payloadSchema: { type: 'object', properties: {}, additionalProperties: false },
      environmentName: 'Development',
      environmentType: 'dev',
    })
    const issues = buildStepIssues({
      stepType: 'push',
      values: { body: 'Hi {{payload.name}}' },
      dashboard: true,
      controlSchema: controlSchemasFor('push').schema,
      variables,
    })
    expect(issues).toEqual({
      controls: {
        subject: [
          { message: 'Subject is required', issueType: 'MISSING_VALUE', variableName: 'subject' },
        ],
        body: [
          {
            message: 'Variable "payload.name" is not supported',
            issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
            variableName: 'payload.name',
          },
        ],
      },
    })
  })

  test('subscriber data and context take any key, other namespaces only their own', () => {
    const schema = buildVariableSchema({
      previousSteps: [{ stepId: 'digest-step', type: 'digest' }],
      payloadSchema: undefined,
      environmentName: 'Development',
      environmentType: 'dev',
    })
    expect(isPropertyAllowed(schema, 'subscriber.data.plan')).toBe(true)
    expect(isPropertyAllowed(schema, 'context.tenant.id')).toBe(true)
    expect(isPropertyAllowed(schema, 'steps.digest-step.events[0].payload.x')).toBe(true)
    expect(isPropertyAllowed(schema, 'subscriber.plan')).toBe(false)
    expect(isPropertyAllowed(schema, 'workflow.foo')).toBe(false)
  })
})
