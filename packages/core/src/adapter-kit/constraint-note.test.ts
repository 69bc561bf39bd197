import { CONSTRAINT_NOTE_PREFIX, constraintNote, moveToDescription, withNote } from './constraint-note';

describe('moveToDescription', () => {
  it('moves the named keywords into the description, after what it said', () => {
    expect(moveToDescription({ type: 'string', description: 'Code', minLength: 3, maxLength: 5 }, ['minLength', 'maxLength'])).toEqual({
      type: 'string',
      description: `Code. ${CONSTRAINT_NOTE_PREFIX} {"minLength":3,"maxLength":5}.`,
    });
  });

  it('writes the note alone without a description, and leaves a schema without those keywords as it is', () => {
    expect(moveToDescription({ type: 'array', uniqueItems: true }, ['uniqueItems'])).toEqual({ type: 'array', description: constraintNote({ uniqueItems: true }) });
    const schema = { type: 'string' };
    expect(moveToDescription(schema, ['minLength'])).toBe(schema);
  });
});

describe('withNote', () => {
  it('puts the note after the description as a sentence of its own', () => {
    expect(withNote('City name', 'Default: "Paris".')).toBe('City name. Default: "Paris".');
    expect(withNote('City name.  ', 'Default: "Paris".')).toBe('City name. Default: "Paris".');
    expect(withNote('Which one?', 'Default: 1.')).toBe('Which one? Default: 1.');
    expect(withNote('One of:', 'Default: 1.')).toBe('One of: Default: 1.');
  });

  it('is the note alone without a description', () => {
    expect(withNote(undefined, 'Default: 1.')).toBe('Default: 1.');
    expect(withNote(' ', 'Default: 1.')).toBe('Default: 1.');
    expect(withNote(42, 'Default: 1.')).toBe('Default: 1.');
  });
});
