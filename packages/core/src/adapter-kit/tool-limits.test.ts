import type { FunctionDeclaration } from '../model/function-declaration';
import { ToolLimitError, findToolLimitViolation } from './tool-limits';

const declaration = (name: string, parameters: FunctionDeclaration['parameters'] = { type: 'object', properties: {} }): FunctionDeclaration => ({ name, description: '', parameters });

/** An object schema with `levels` objects along its one path, the root included. */
function nested(levels: number): FunctionDeclaration['parameters'] {
  let schema: FunctionDeclaration['parameters'] = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

describe('findToolLimitViolation', () => {
  it('finds nothing when every limit holds, or none is given', () => {
    const tools = [declaration('a', nested(3)), declaration('b')];
    expect(findToolLimitViolation(tools, { maxTools: 2, maxNameLength: 1, maxNestingDepth: 3, maxProperties: 3, maxEnumValues: 0 })).toBeUndefined();
    expect(findToolLimitViolation(tools, {})).toBeUndefined();
  });

  it('counts tools, name length, nesting, properties and enum values', () => {
    expect(findToolLimitViolation([declaration('a'), declaration('b')], { maxTools: 1 })).toEqual({ limit: 'maxTools', max: 1, actual: 2, schemaPath: '' });
    expect(findToolLimitViolation([declaration('abcd')], { maxNameLength: 3 })).toMatchObject({ limit: 'maxNameLength', actual: 4, toolName: 'abcd' });
    expect(findToolLimitViolation([declaration('deep', nested(4))], { maxNestingDepth: 3 })).toEqual({
      limit: 'maxNestingDepth',
      max: 3,
      actual: 4,
      toolName: 'deep',
      schemaPath: '/properties/child/properties/child/properties/child',
    });
    expect(findToolLimitViolation([declaration('wide', nested(2))], { maxProperties: 1 })).toMatchObject({ limit: 'maxProperties', actual: 2 });
    const enums = { type: 'object', properties: { a: { enum: [1, 2] }, b: { type: 'array', items: { enum: ['x', 'y'] } } } };
    expect(findToolLimitViolation([declaration('enums', enums)], { maxEnumValues: 3 })).toMatchObject({ limit: 'maxEnumValues', actual: 4, schemaPath: '/properties/b/items' });
  });

  it('measures $defs from the top and does not follow recursive $refs', () => {
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { meta: { type: 'object', properties: {} }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    expect(findToolLimitViolation([declaration('tree', tree)], { maxNestingDepth: 2 })).toBeUndefined();
    expect(findToolLimitViolation([declaration('tree', tree)], { maxNestingDepth: 1 })).toMatchObject({ actual: 2, schemaPath: '/$defs/Node/properties/meta' });
  });
});

describe('ToolLimitError', () => {
  it('names the provider, the tool, the path, both numbers and the fix', () => {
    const error = new ToolLimitError('OpenAI (strict mode)', { limit: 'maxNestingDepth', max: 10, actual: 11, toolName: 'deep', schemaPath: '/properties/a' });
    expect(error.code).toBe('TOOL_LIMIT_EXCEEDED');
    expect(error.message).toBe(
      'Tool "deep" has 11 levels of nested objects (at /properties/a), more than OpenAI (strict mode) accepts (10). ' +
        'Fix: flatten the parameters (fewer nested objects), or refer to a shared part with $ref/$defs.',
    );
    expect(new ToolLimitError('OpenAI', { limit: 'maxTools', max: 128, actual: 129, schemaPath: '' }).message).toMatch(/^The agent offers 129 tools, more than OpenAI accepts \(128\)\. Fix: /);
  });
});
