import type { JsonSchema } from '../model/json-schema';
import { functionTool } from '../function-tool/function-tool';
import { testToolContext } from '../testing/test-tool-context';
import type { BaseTool } from '../tools/base-tool';
import { DEFAULT_TOOL_CALL_POLICY } from '../tools/tool-call-policy';
import { executeToolCall } from './tool-executor';

const PARAMETERS: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    priority: { type: 'string', enum: ['low', 'medium', 'high'] },
    estimate: { type: 'integer', minimum: 1 },
  },
  required: ['title', 'priority'],
  additionalProperties: false,
};

const seen: Array<Record<string, unknown>> = [];
const task = (repairArguments?: boolean): BaseTool =>
  functionTool({
    name: 'createTask',
    description: 'Creates a task.',
    parameters: PARAMETERS,
    ...(repairArguments === undefined ? {} : { repairArguments }),
    execute: (args: Record<string, unknown>) => {
      seen.push(args);
      return { ok: true };
    },
  });

const run = (args: Record<string, unknown> | string, tool = task(), repairArguments?: boolean) =>
  executeToolCall({
    call: { id: 'c1', name: 'createTask', args },
    tool,
    availableToolNames: () => ['createTask'],
    context: testToolContext({ functionCallId: 'c1' }),
    policy: repairArguments === undefined ? DEFAULT_TOOL_CALL_POLICY : { ...DEFAULT_TOOL_CALL_POLICY, repairArguments },
  });

beforeEach(() => (seen.length = 0));

describe('argument repair in the executor', () => {
  it('runs the tool with repaired arguments and records each repair on the response', async () => {
    const out = await run('```json\n{"title":"Ship","priority":"High","estimate":"3",}\n```');
    expect(out.error).toBeUndefined();
    expect(seen).toEqual([{ title: 'Ship', priority: 'high', estimate: 3 }]);
    expect(out.response.argumentRepairs).toEqual([
      { repair: 'code-fence', path: '' },
      { repair: 'trailing-comma', path: '' },
      { repair: 'enum-case', path: '/priority', value: 'high' },
      { repair: 'string-to-number', path: '/estimate' },
    ]);
    // The model is told nothing about repairs: they are not part of what it reads.
    expect(out.response.response).toEqual({ ok: true });
  });

  it('leaves valid arguments untouched and records nothing', async () => {
    const args = { title: 'Ship', priority: 'low' };
    const out = await run(args);
    // The tool gets the same values in a copy of its own (the call as stored keeps the model's object).
    expect(seen[0]).toEqual(args);
    expect(seen[0]).not.toBe(args);
    expect(out.response.argumentRepairs).toBeUndefined();
  });

  it('names every remaining problem at its path, with what was received and expected, in one response', async () => {
    const out = await run({ title: 7, priority: 'urgent', estimate: '0', extra: true });
    expect(out.error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toEqual([]);
    const problems = (out.error?.details as { problems: Array<{ path: string; message: string }> }).problems;
    expect(problems.map((p) => p.message)).toEqual([
      'extra: unknown property, expected it left out',
      'title: got 7, expected string',
      'priority: got "urgent", expected one of "low" | "medium" | "high"',
      'estimate: got 0, expected >= 1',
    ]);
    expect(problems.map((p) => p.path)).toEqual(['/extra', '/title', '/priority', '/estimate']);
    // The string-to-number repair was made (and recorded) though other problems remain.
    expect(out.response.argumentRepairs).toEqual([{ repair: 'string-to-number', path: '/estimate' }]);
  });

  it('is off for a tool with repairArguments: false', async () => {
    const out = await run({ title: 'Ship', priority: 'HIGH' }, task(false));
    expect(out.error?.message).toContain('priority: got "HIGH", expected one of "low" | "medium" | "high"');
    expect(out.response.argumentRepairs).toBeUndefined();
    const fenced = await run('```\n{"title":"Ship","priority":"low"}\n```', task(false));
    expect(fenced.error?.code).toBe('MALFORMED_ARGUMENTS');
  });

  it('is off runner-wide with the policy, and on again for nothing', async () => {
    const out = await run({ title: 'Ship', priority: 'low', estimate: '2' }, task(), false);
    expect(out.error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toEqual([]);
  });

  it('checks a decoded property against the argument limits and key rules like the rest', async () => {
    const tool = functionTool({
      name: 'createTask',
      description: 'Creates a task.',
      parameters: { type: 'object', properties: { meta: { type: 'object' } }, required: ['meta'] },
      execute: () => 'ran',
    });
    const out = await run({ meta: '{"__proto__":{"polluted":true}}' }, tool);
    expect(out.error?.code).toBe('MALFORMED_ARGUMENTS');
  });
});
