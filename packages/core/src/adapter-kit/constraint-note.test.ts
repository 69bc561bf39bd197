import { CONSTRAINT_NOTE_PREFIX, constraintNote, moveToDescription } from './constraint-note';

describe('moveToDescription', () => {
  it('moves the named keywords into the description, after what it said', () => {
    expect(moveToDescription({ type: 'string', description: 'Code', minLength: 3, maxLength: 5 }, ['minLength', 'maxLength'])).toEqual({
      type: 'string',
      description: `Code ${CONSTRAINT_NOTE_PREFIX} {"minLength":3,"maxLength":5}.`,
    });
  });

  it('writes the note alone without a description, and leaves a schema without those keywords as it is', () => {
    expect(moveToDescription({ type: 'array', uniqueItems: true }, ['uniqueItems'])).toEqual({ type: 'array', description: constraintNote({ uniqueItems: true }) });
    const schema = { type: 'string' };
    expect(moveToDescription(schema, ['minLength'])).toBe(schema);
  });
});
