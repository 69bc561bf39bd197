import { LlmAgent } from '../agents/llm-agent';
import { InvalidConfirmationRuleError } from '../errors/tool-definition-errors';
import { functionTool } from '../function-tool/function-tool';
import type { JsonSchema } from '../model/json-schema';
import { Runner } from '../runner/runner';
import { scanTools } from '../scanning/tool-scanner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { BaseTool } from './base-tool';
import type { RequireConfirmation } from './require-confirmation';
import { Tool } from './tool';
import { Toolset } from './toolset';

// requireConfirmation values that are neither a boolean nor a function: each used to pass the definition and fail every call.
const BAD: Array<[unknown, string]> = [
  ['yes', 'a string ("yes")'],
  [{}, 'an object'],
  [1, 'a number (1)'],
  [null, 'null'],
  [['a'], 'an array'],
];

const refusal = (valueType: string, where: string) =>
  expect.objectContaining({ code: 'INVALID_CONFIRMATION_RULE', valueType, message: expect.stringContaining(`${where}: requireConfirmation is ${valueType}; it must be true`) });

function caught(define: () => unknown): unknown {
  try {
    define();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe.each(BAD)('requireConfirmation %p is refused where the tool is defined', (value, valueType) => {
  it('on a @Tool method, when the class is scanned', () => {
    @Toolset()
    class Refunds {
      @Tool({ requireConfirmation: value as RequireConfirmation })
      refund() {
        return 1;
      }
    }
    const error = caught(() => scanTools(Refunds));
    expect(error).toBeInstanceOf(InvalidConfirmationRuleError);
    expect(error).toEqual(refusal(valueType, 'Refunds.refund'));
  });

  it('on a functionTool', () => {
    const error = caught(() => functionTool({ name: 'refund', description: 'Refunds.', execute: () => 1, requireConfirmation: value as RequireConfirmation }));
    expect(error).toEqual(refusal(valueType, 'functionTool.refund'));
  });

  it("given to BaseTool's constructor", () => {
    class Wipe extends BaseTool {
      readonly name = 'wipe';
      readonly description = 'Wipes.';
      readonly parameters: JsonSchema = { type: 'object', properties: {} };
      constructor() {
        super({ requireConfirmation: value as RequireConfirmation });
      }
      run() {
        return {};
      }
    }
    expect(caught(() => new Wipe())).toEqual(refusal(valueType, 'Wipe'));
  });
});

describe('a requireConfirmation field a BaseTool subclass or a toolset sets is refused when an agent offers the tool', () => {
  class Wipe extends BaseTool {
    readonly name = 'wipe';
    readonly description = 'Wipes.';
    readonly parameters: JsonSchema = { type: 'object', properties: {} };
    override readonly requireConfirmation = 'yes' as unknown as RequireConfirmation;
    run() {
      return {};
    }
  }

  it('a static tool: when the Runner is built', () => {
    const agent = new LlmAgent({ name: 'bot', model: new ScriptedModel(['ok']), tools: [new Wipe()] });
    expect(caught(() => new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent }))).toEqual(refusal('a string ("yes")', 'Wipe.wipe'));
  });

  it("a toolset's tool: the run ends with the error before the request that would offer it", async () => {
    const model = new ScriptedModel(['ok']);
    const agent = new LlmAgent({ name: 'bot', model, tools: [{ getTools: () => [new Wipe()] }] });
    const runner = new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent });
    const events: unknown[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) events.push(event);
    expect(events).toEqual([expect.objectContaining({ errorCode: 'INVALID_CONFIRMATION_RULE', errorMessage: expect.stringContaining('Wipe.wipe: requireConfirmation is a string ("yes")') })]);
    expect(model.requests).toHaveLength(0);
  });

  it('true, false, a function and absent are taken', () => {
    for (const requireConfirmation of [true, false, () => true, undefined]) {
      const tool = functionTool({ name: 'ok', description: 'Ok.', execute: () => 1, requireConfirmation });
      expect(new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([]), tools: [tool] }) })).toBeDefined();
    }
  });
});
