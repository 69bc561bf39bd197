import { withholdEvalSecrets } from './withhold-eval-secrets';

describe('withholdEvalSecrets', () => {
  it('leaves out whole a malformed arguments text holding a secret, and keeps one holding none', () => {
    const { evalCase, withheld } = withholdEvalSecrets({
      id: 'c',
      turns: [
        { user: 'Connect', tools: { calls: [{ name: 'connect', argsText: '{"password": "hunter2", "host": "db' }] } },
        { user: 'Look up A-1', tools: { calls: [{ name: 'lookup', argsText: '{"orderId": "A-' }] } },
        { user: 'Log in', tools: { calls: [{ name: 'login', args: { user: 'ada', password: 'hunter2' }, exactArgs: true, failed: true }] } },
      ],
    });
    expect(withheld).toEqual(['turn 1: connect arguments', 'turn 3: login.password']);
    // A malformed call failed, and a call recorded as failed stays so: the replay matches only a call that fails again.
    expect(evalCase.turns.map((turn) => turn.tools!.calls)).toEqual([
      [{ name: 'connect', failed: true }],
      [{ name: 'lookup', argsText: '{"orderId": "A-' }],
      [{ name: 'login', args: { user: 'ada' }, failed: true }],
    ]);
  });
});
