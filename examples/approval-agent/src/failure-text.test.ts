import { ProviderError } from '@toolsmith/core';
import { DataDirLockedError } from '@toolsmith/postgres';
import { failureText } from './failure-text';

describe('failureText', () => {
  it("prints a typed error's code and message, not its stack (a second --resume while one runs)", () => {
    const locked = new DataDirLockedError('/app/.sessions', 4242, '/app/.sessions/toolsmith.lock');
    expect(failureText(locked)).toBe(`POSTGRES_DATA_DIR_LOCKED: ${locked.message}`);
    expect(failureText(locked)).not.toContain('    at ');
    expect(failureText(new ProviderError('AUTHENTICATION_FAILED', 'OpenAI request failed (401): bad key', { provider: 'openai' }))).toBe(
      'AUTHENTICATION_FAILED: OpenAI request failed (401): bad key',
    );
  });

  it('prints anything else as Node does, stack included', () => {
    const bug = new TypeError('x is not a function');
    expect(failureText(bug)).toBe(bug.stack);
    expect(failureText('plain')).toBe('plain');
  });
});
