import { ScriptedModel } from '@toolsmith/core/testing';
import { pickModel } from './pick-model';

const offline = () => new ScriptedModel([]);

describe('pickModel', () => {
  it('uses the first provider whose key is set, with TOOLSMITH_MODEL as the model id', () => {
    expect(pickModel({ OPENAI_API_KEY: 'k' }, offline).model.provider).toBe('openai');
    expect(pickModel({ ANTHROPIC_API_KEY: 'k', TOOLSMITH_MODEL: 'claude-x' }, offline).model).toMatchObject({ provider: 'anthropic', modelName: 'claude-x' });
    expect(pickModel({ GEMINI_API_KEY: 'k' }, offline).model.provider).toBe('gemini');
    expect(pickModel({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' }, offline).offline).toBe(false);
  });

  it('runs offline without a key, on the demo\'s own model, and says so', () => {
    const model = new ScriptedModel([]);
    const picked = pickModel({}, () => model);
    expect(picked.offline).toBe(true);
    expect(picked.model).toBe(model);
    expect(picked.description).toMatch(/^offline/);
  });
});
