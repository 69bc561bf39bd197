import { ToolsmithError } from '../errors/toolsmith-error';
import { exposedMessage } from './tool-call-policy';

describe('exposedMessage', () => {
  it('a policy that throws sends the safe text, naming nothing of what it threw', () => {
    const policy = (thrown: () => unknown) => () => {
      throw thrown();
    };
    const code = exposedMessage(policy(() => new ToolsmithError('POLICY_BROKEN' as never, 'db at postgres://admin:hunter2@db')), 'lookup', new Error('x'));
    expect(code).toBe('Tool "lookup" failed. (The error policy itself failed.)');
    for (const thrown of [
      () => ({ [Symbol.for('toolsmith.error')]: true, get code(): string { throw new Error('code boom'); }, message: 'm' }),
      () => new ToolsmithError('postgres://admin:hunter2@db failed' as never, 'm'),
      () => new ToolsmithError('db_at_postgres://admin:hunter2@db_failed' as never, 'm'),
      () => new ToolsmithError('X'.repeat(300_000) as never, 'm'),
    ]) {
      expect(exposedMessage(policy(thrown), 'lookup', new Error('x'))).toBe('Tool "lookup" failed. (The error policy itself failed.)');
    }
  });
});
