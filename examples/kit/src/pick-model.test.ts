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

  it('uses a local OpenAI-compatible server from OPENAI_BASE_URL, without a key', () => {
    const picked = pickModel({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, offline);
    expect(picked.model).toMatchObject({ provider: 'openai', modelName: 'llama3.1' });
    expect(picked.description).toBe('OpenAI llama3.1 at http://localhost:11434/v1');
    expect(pickModel({ OPENAI_BASE_URL: 'http://localhost:8000/v1', TOOLSMITH_MODEL: 'qwen' }, offline).model.modelName).toBe('qwen');
  });

  it('runs offline without a key, on the demo\'s own model, and says so', () => {
    const model = new ScriptedModel([]);
    const picked = pickModel({}, () => model);
    expect(picked.offline).toBe(true);
    expect(picked.model).toBe(model);
    expect(picked.description).toMatch(/^offline/);
  });
});
