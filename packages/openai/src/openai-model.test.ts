import { ProviderError } from '@toolsmith/core';
import { OpenAIModel } from './openai-model';

describe('OpenAIModel construction', () => {
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });
  afterAll(() => {
    if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
    if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
  });

  it('refuses to start without an API key, with a typed error saying how to fix it', () => {
    let error: unknown;
    try {
      new OpenAIModel({ model: 'gpt-4.1-mini' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'AUTHENTICATION_FAILED', message: expect.stringContaining('OPENAI_API_KEY') });
  });

  it('refuses audioInput that is not a boolean, or with the Responses API (which takes no audio)', () => {
    const base = { model: 'gpt-4o-audio-preview', apiKey: 'k' };
    expect(() => new OpenAIModel({ ...base, audioInput: 'false' as unknown as boolean })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('must be true or false (got "false")') }));
    expect(() => new OpenAIModel({ ...base, api: 'responses', audioInput: true })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("use it with api: 'chat'") }));
    expect(new OpenAIModel({ ...base, audioInput: false }).api).toBe('chat');
  });

  it('needs no key for a local server given by baseURL or OPENAI_BASE_URL', () => {
    expect(new OpenAIModel({ model: 'llama3.1', baseURL: 'http://localhost:11434/v1' }).provider).toBe('openai');
    process.env.OPENAI_BASE_URL = 'http://localhost:8000/v1';
    expect(new OpenAIModel({ model: 'qwen' }).modelName).toBe('qwen');
  });

  it('defaults to Chat Completions', () => {
    expect(new OpenAIModel({ model: 'm', apiKey: 'k' }).api).toBe('chat');
    expect(new OpenAIModel({ model: 'm', apiKey: 'k', api: 'responses' }).api).toBe('responses');
  });
});
