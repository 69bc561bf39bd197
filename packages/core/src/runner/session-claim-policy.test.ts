import { LlmAgent } from '../agents/llm-agent';
import { ScriptedModel } from '../testing/scripted-model';
import { Runner } from './runner';
import type { SessionClaimPolicy } from './session-claim-policy';

const build = (sessionClaim: SessionClaimPolicy) => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['hi']) }), sessionClaim });

describe('sessionClaim policy', () => {
  it.each([
    [{ leaseMs: 0 }, 'sessionClaim.leaseMs is 0'],
    [{ leaseMs: Number.NaN }, 'sessionClaim.leaseMs is NaN'],
    [{ leaseMs: Number.POSITIVE_INFINITY }, 'sessionClaim.leaseMs is Infinity'],
    [{ leaseMs: -5 }, 'sessionClaim.leaseMs is -5'],
    [{ leaseMs: '100' as unknown as number }, 'sessionClaim.leaseMs is "100"'],
    // Too short for a renewal to reach the store in time (a living run's claim lapsed), too long for a timer, not whole.
    [{ leaseMs: 1 }, 'sessionClaim.leaseMs is 1: it must be a whole number of milliseconds from 1,000'],
    [{ leaseMs: 999 }, 'sessionClaim.leaseMs is 999'],
    [{ leaseMs: 86_400_001 }, 'sessionClaim.leaseMs is 86400001'],
    [{ leaseMs: 1e13 }, 'sessionClaim.leaseMs is 10000000000000'],
    [{ leaseMs: 1e300 }, 'sessionClaim.leaseMs is 1e+300'],
    [{ leaseMs: 1500.5 }, 'sessionClaim.leaseMs is 1500.5'],
    [{ maxWaitMs: -1 }, 'sessionClaim.maxWaitMs is -1'],
    [{ maxWaitMs: Number.NaN }, 'sessionClaim.maxWaitMs is NaN'],
    [{ onBusy: 'retry' as 'wait' }, 'sessionClaim.onBusy is "retry"'],
  ])('refuses %p when the runner is built, with AGENT_CONFIG_INVALID', (policy, text) => {
    expect(() => build(policy)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining(text) }));
  });

  it('takes the smallest values that work and keeps defaults for options left out or undefined', () => {
    expect(() => build({ leaseMs: 1_000, maxWaitMs: 0, onBusy: 'fail' })).not.toThrow();
    expect(() => build({ leaseMs: 86_400_000 })).not.toThrow();
    expect(() => build({ leaseMs: undefined, maxWaitMs: undefined, onBusy: undefined })).not.toThrow();
  });
});
