import { withholdEvalSecrets } from './withhold-eval-secrets';

describe('withholdEvalSecrets', () => {
  it('leaves out whole a malformed arguments text holding a secret, and keeps one holding none', () => {
    const { evalCase, withheld } = withholdEvalSecrets({
      id: 'c',
      turns: [
        { user: 'Connect', tools: { calls: [{ name: 'connect', argsText: '{"password": "hunter2", "host": "db' }] } },
        { user: 'Look up A-1', tools: { calls: [{ name: 'lookup', argsText: '{"orderId": "A-' }] } },
      ],
    });
    expect(withheld).toEqual(['turn 1: connect arguments']);
    expect(evalCase.turns.map((turn) => turn.tools!.calls)).toEqual([[{ name: 'connect' }], [{ name: 'lookup', argsText: '{"orderId": "A-' }]]);
  });
});
