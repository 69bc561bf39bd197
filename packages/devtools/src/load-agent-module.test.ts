import { join } from 'node:path';
import { Runner } from '@toolsmith/core';
import { loadAgentModule } from './load-agent-module';

const fixtures = join(__dirname, '__fixtures__');

describe('loadAgentModule', () => {
  it('finds the exported agent and its providers', () => {
    const loaded = loadAgentModule(join(fixtures, 'desk-agent.ts'));
    expect(loaded.agent.name).toBe('desk_agent');
    expect(loaded.appName).toBe('desk_agent');
    expect(loaded.providers).toHaveLength(1);
    expect(loaded.runner).toBeUndefined();
  });

  it('takes an exported Runner with its agent and app name', async () => {
    const loaded = loadAgentModule(join(fixtures, 'desk-runner.ts'));
    expect(loaded.runner).toBeInstanceOf(Runner);
    expect(loaded.agent.name).toBe('desk_agent');
    expect(loaded.appName).toBe('desk_app');
    // Building the Runner scanned the toolset, and core warms its validator up on a 0 ms timer; a timer
    // queued after it fires after it, so the warm-up does not run after this file's environment is gone.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('of an agent and its sub-agent, takes the root', () => {
    expect(loadAgentModule(join(fixtures, 'agent-with-helpers.ts')).agent.name).toBe('coordinator');
  });

  it('refuses several root agents, a module with none, and a missing file, each with its code', () => {
    expect(() => loadAgentModule(join(fixtures, 'two-agents.ts'))).toThrow(
      expect.objectContaining({ code: 'NO_AGENT_EXPORTED', message: expect.stringContaining('several agents (billing, support)') }),
    );
    expect(() => loadAgentModule(join(fixtures, 'read-sse.ts'))).toThrow(expect.objectContaining({ code: 'NO_AGENT_EXPORTED' }));
    expect(() => loadAgentModule('nowhere.js', { cwd: fixtures })).toThrow(expect.objectContaining({ code: 'AGENT_MODULE_NOT_FOUND' }));
  });

  it('refuses a plugins export that is not an array (a guard plugin would never run, unseen)', () => {
    expect(() => loadAgentModule(join(fixtures, 'plugin-not-array.ts'))).toThrow(
      expect.objectContaining({ code: 'AGENT_MODULE_LOAD_FAILED', message: expect.stringContaining('not an array of plugins') }),
    );
  });
});
