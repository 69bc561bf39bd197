import { inlineDefinitions } from './inline-definitions';

describe('inlineDefinitions', () => {
  it('inlines references, keeping use-site annotations over the type’s own', () => {
    const result = inlineDefinitions(
      { type: 'object', properties: { at: { $ref: '#/definitions/Point', description: 'where' }, tags: { $ref: '#/definitions/Record%3Cstring%2Cstring%3E' } } },
      {
        Point: { description: 'a point', type: 'object', properties: { x: { $ref: '#/definitions/Num' } } },
        Num: { type: 'number' },
        'Record<string,string>': { type: 'object', additionalProperties: { type: 'string' } },
      },
    );
    expect(result).toEqual({
      schema: {
        type: 'object',
        properties: {
          at: { description: 'where', type: 'object', properties: { x: { type: 'number' } } },
          tags: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      defs: {},
    });
  });

  it('keeps recursive types (direct and mutual) as $defs references', () => {
    const { schema, defs } = inlineDefinitions(
      { $ref: '#/definitions/Tree' },
      {
        Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/Tree' } }, meta: { $ref: '#/definitions/Meta' } } },
        Meta: { type: 'object', properties: { owner: { $ref: '#/definitions/Person' } } },
        Person: { type: 'object', properties: { friend: { $ref: '#/definitions/Person' } } },
      },
    );
    expect(schema).toEqual({ $ref: '#/$defs/Tree' });
    expect(defs.Tree).toEqual({
      type: 'object',
      properties: {
        children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
        meta: { type: 'object', properties: { owner: { $ref: '#/$defs/Person' } } },
      },
    });
    expect(defs.Person).toEqual({ type: 'object', properties: { friend: { $ref: '#/$defs/Person' } } });
    expect(defs).not.toHaveProperty('Meta');
  });

  it('leaves data alone and makes $defs keys safe', () => {
    const { schema, defs } = inlineDefinitions(
      { enum: [{ $ref: '#/definitions/X' }], default: { $ref: '#/definitions/X' }, items: { $ref: '#/definitions/List%3CX%3E' } },
      { 'List<X>': { type: 'array', items: { $ref: '#/definitions/List%3CX%3E' } }, X: { type: 'string' } },
    );
    expect(schema).toEqual({
      enum: [{ $ref: '#/definitions/X' }],
      default: { $ref: '#/definitions/X' },
      items: { $ref: '#/$defs/List_X_' },
    });
    expect(defs).toEqual({ List_X_: { type: 'array', items: { $ref: '#/$defs/List_X_' } } });
  });
});
