// An agent whose model passes secrets as tool arguments (a password, a bearer token nested in an
// object), offline on ScriptedModel: for the test that a session saved as an eval case keeps none of them.
import { LlmAgent, type LlmRequest, Param, Tool, Toolset } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn } from '@toolsmith/core/testing';

/** The secrets the model sends; none may reach an eval set file. */
export const PASSWORD = 'hunter2-correct-horse';
export const BEARER = 'sk-live-0123456789abcdef';

@Toolset()
export class LoginTools {
  @Tool({ description: 'Connects to a database.' })
  connect(@Param('host') host: string, @Param('password') password: string, @Param('options', { schema: { type: 'object' } }) options: Record<string, unknown>) {
    return { connected: host, passwordLength: password.length, optionCount: Object.keys(options).length };
  }
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  if (last.parts.some((p) => p.functionResponse)) return `Connected (header ${BEARER}).`;
  return { calls: [{ name: 'connect', args: { host: 'db.internal', password: PASSWORD, options: { header: BEARER, retries: 2 } } }] };
}

export const agent = new LlmAgent({ name: 'login_agent', model: new ScriptedModel(answer, { modelName: 'login-script' }), instruction: 'You connect.', tools: [LoginTools] });
