import { pickModel } from './pick-model';

describe('pickModel', () => {
  it('uses the first provider whose key is set, with TOOLSMITH_MODEL as the model id', () => {
    expect(pickModel({ OPENAI_API_KEY: 'k' }).model.provider).toBe('openai');
    expect(pickModel({ ANTHROPIC_API_KEY: 'k', TOOLSMITH_MODEL: 'claude-x' }).model).toMatchObject({ provider: 'anthropic', modelName: 'claude-x' });
    expect(pickModel({ GEMINI_API_KEY: 'k' }).model.provider).toBe('gemini');
    expect(pickModel({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' }).offline).toBe(false);
  });

  it('runs offline without a key and says so', () => {
    const picked = pickModel({});
    expect(picked.offline).toBe(true);
    expect(picked.model.provider).toBe('scripted');
    expect(picked.description).toMatch(/^offline/);
  });
});
