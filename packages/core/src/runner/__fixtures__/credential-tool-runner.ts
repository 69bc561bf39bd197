import { LlmAgent } from '../../agents/llm-agent';
import type { AuthConfig } from '../../auth/auth-config';
import type { CredentialService } from '../../auth/credential-service';
import { functionTool } from '../../function-tool/function-tool';
import type { Content } from '../../model/content';
import { InMemorySessionService } from '../../sessions/in-memory-session-service';
import { collect } from '../../testing/collect';
import { ScriptedModel } from '../../testing/scripted-model';
import type { ToolContext } from '../../tools/tool-context';
import { Runner } from '../runner';

/**
 * A runner (app `wx`, user `u`, session `s`) whose one tool, `weather`, takes no arguments, needs `auth` and runs
 * `execute`; its model calls the tool (call id `c1`) until it sees the tool's response, then answers `done`.
 */
export function credentialToolRunner<S extends CredentialService>(auth: AuthConfig, credentialService: S, execute: (args: Record<string, never>, ctx: ToolContext) => unknown) {
  const tool = functionTool({ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: {}, additionalProperties: false }, auth, execute });
  const model = new ScriptedModel((request) => (request.contents.at(-1)?.parts[0]?.functionResponse?.name === 'weather' ? 'done' : { calls: [{ id: 'c1', name: 'weather', args: {} }] }));
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService, credentialService });
  const run = (newMessage: Content) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage }));
  const session = async () => (await sessionService.getSession({ appName: 'wx', userId: 'u', sessionId: 's' }))!;
  return { run, session, credentialService };
}
