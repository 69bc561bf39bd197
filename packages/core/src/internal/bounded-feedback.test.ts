import { z } from 'zod';
import { LlmAgent } from '../agents/llm-agent';
import { MAX_LISTED_PROBLEMS, MAX_LISTED_PROBLEM_CHARS, MAX_PROBLEM_CHARS } from '../errors/messages';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { functionTool } from '../function-tool/function-tool';
import { Runner } from '../runner/runner';
import { invokeTool } from '../testing/invoke-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { testToolContext } from '../testing/test-tool-context';
import { executeToolCall } from './tool-executor';

// What the model is sent for hostile calls stays bounded, whatever the model sends: the feedback on
// thousands of problems, the echo of a huge key, arguments that count as more than their strings, JSON
// nested in a string, and errors as large as any result.

const tags = functionTool({
  name: 'order',
  description: 'Orders.',
  parameters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', maxLength: 5 } } }, required: ['tags'], additionalProperties: false },
  execute: () => ({ ok: true }),
});

const errorOf = (response: Record<string, unknown>) => response.error as { code: string; message: string; details?: unknown; detailsOmitted?: string };

describe('the feedback on an invalid call', () => {
  it('lists the first problems, in order, and counts the rest; the error keeps every problem', async () => {
    const out = await invokeTool(tags, 'order', JSON.stringify({ tags: Array.from({ length: 16_000 }, () => 1) }));
    const error = errorOf(out.response);
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message.startsWith('Invalid arguments: tags[0]: got 1, expected string; tags[1]: got 1, expected string;')).toBe(true);
    const listed = error.message.split('; ').filter((part) => part.includes('expected string'));
    expect(listed).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(error.message.endsWith(`; …and ${16_000 - MAX_LISTED_PROBLEMS} more problems.`)).toBe(true);
    // Each problem once: the message lists them, so `details.problems` is not sent.
    expect(error.details).toBeUndefined();
    expect((out.error!.details as { problems: ArgumentProblem[] }).problems).toHaveLength(16_000);
    expect(error.message.length).toBeLessThan(MAX_LISTED_PROBLEM_CHARS + 100);
  });

  it('stops listing at the character cap, and cuts one long problem and an unknown key of 100,000 characters', async () => {
    const key = 'k'.repeat(100_000);
    const out = await invokeTool(tags, 'order', { tags: [], [key]: 1 });
    const error = errorOf(out.response);
    expect(error.message).toBe(`Invalid arguments: ${'k'.repeat(59)}…: unknown property, expected it left out.`);

    // 40 problems of over 400 characters each: each is cut, the listed ones fit the cap, the others are counted.
    const names = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const wide = functionTool({
      name: 'wide',
      description: 'W.',
      parameters: { type: 'object', properties: Object.fromEntries(names.map((name) => [name, { enum: ['v'.repeat(400)] }])) },
      execute: () => ({}),
    });
    const args = Object.fromEntries(names.map((name) => [name, 1]));
    const many = errorOf((await invokeTool(wide, 'wide', args)).response);
    const listed = many.message.slice('Invalid arguments: '.length).split('; ');
    const more = listed.pop()!;
    expect(listed.join('; ').length).toBeLessThanOrEqual(MAX_LISTED_PROBLEM_CHARS);
    expect(listed.length + Number(/^…and (\d+) more problems\.$/.exec(more)![1])).toBe(40);
    expect(listed.map((problem) => problem.length)).toEqual(listed.map(() => MAX_PROBLEM_CHARS));
    expect(listed[0]).toBe(`p00: got 1, expected one of "${'v'.repeat(MAX_PROBLEM_CHARS - 30)}…`);
  });

  it('keeps each problem whose cut text reads like another\'s: unknown keys alike in their first 59 characters', async () => {
    const p = 'p'.repeat(70);
    const cutKey = `${'p'.repeat(59)}…: unknown property, expected it left out`;
    // Four problems (compared pairwise) and thirty (through a set): all kept, all listed or counted.
    for (const count of [3, 30]) {
      const args: Record<string, unknown> = { tags: [], short_x: 4 };
      for (let i = 0; i < count; i++) args[`${p}_${i}`] = i;
      const out = await invokeTool(tags, 'order', args);
      const problems = (out.error!.details as { problems: ArgumentProblem[] }).problems;
      expect(problems.map((problem) => problem.path).sort()).toEqual(Object.keys(args).filter((key) => key !== 'tags').map((key) => `/${key}`).sort());
      const listed = errorOf(out.response).message.slice('Invalid arguments: '.length, -1).split('; ');
      expect(listed.filter((problem) => problem === cutKey)).toHaveLength(count);
      expect(listed).toContain('short_x: unknown property, expected it left out');
      expect(listed).toHaveLength(count + 1);
    }
  });

  it('is bounded for a Standard Schema too', async () => {
    const zodTags = functionTool({ name: 'order', description: 'Orders.', parameters: z.object({ tags: z.array(z.string().max(5)) }), execute: () => ({ ok: true }) });
    const out = await invokeTool(zodTags, 'order', { tags: Array.from({ length: 16_000 }, () => 1) });
    const error = errorOf(out.response);
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message.endsWith(`; …and ${16_000 - MAX_LISTED_PROBLEMS} more problems.`)).toBe(true);
    expect(error.details).toBeUndefined();
  });

  it('is what the runner stores and sends again', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'order', args: { tags: Array.from({ length: 5_000 }, () => 1) } }] }, 'ok']);
    const runner = new Runner({ appName: 'a', agent: new LlmAgent({ name: 'bot', model, tools: [tags] }) });
    await runner.ask({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'go' }] } });
    const sent = model.requests[1].contents.at(-1)!.parts[0].functionResponse!;
    expect(JSON.stringify(sent.response).length).toBeLessThan(MAX_LISTED_PROBLEM_CHARS + 200);
  });
});

describe('argument limits on arguments given as an object', () => {
  const any = functionTool({ name: 'any', description: 'A.', parameters: { type: 'object', properties: { a: {} } }, execute: () => ({ ok: true }) });
  const call = (args: Record<string, unknown>, maxChars: number) =>
    executeToolCall({ call: { id: 'c', name: 'any', args }, tool: any, availableToolNames: () => [], context: testToolContext(), limits: { maxChars, maxDepth: 64 } });

  it('count the characters of the JSON text the object would be', async () => {
    const numbers = { a: Array.from({ length: 600_000 }, (_, i) => i * 1000003) };
    expect((await call(numbers, 1_000_000)).error?.code).toBe('ARGUMENTS_TOO_LARGE');
    for (const args of [{ a: [1, -20, 3.5, true, false, null, 'x"y', { b: [] }, {}] }, { a: 123456789012 }, { a: 1e21 }, { a: -0.000001 }]) {
      const chars = JSON.stringify(args).replace(/\\"/g, '"').length; // escapes are not counted
      expect({ args, code: (await call(args, chars)).error?.code }).toEqual({ args, code: undefined });
      expect({ args, code: (await call(args, chars - 1)).error?.code }).toEqual({ args, code: 'ARGUMENTS_TOO_LARGE' });
    }
  });
});

describe('a repair that decodes JSON nested in a string', () => {
  const node = { type: 'object', properties: { v: { type: 'integer' }, c: { $ref: '#/$defs/node' } }, additionalProperties: false };
  let ran = 0;
  const tree = functionTool({
    name: 'tree',
    description: 'T.',
    parameters: { type: 'object', properties: { tree: { $ref: '#/$defs/node' } }, additionalProperties: false, $defs: { node } },
    execute: () => ({ ran: ++ran }),
  });
  const deep = (levels: number, leaf = '{"v":1}') => {
    let text = leaf;
    for (let i = 1; i < levels; i++) text = `{"v":1,"c":${text}}`;
    return text;
  };

  it.each([
    ['5,000 levels', deep(5_000)],
    ['5,000 levels with a bad leaf', deep(5_000, '{"v":"x"}')],
    ['64 levels (65 with the arguments object)', deep(64)],
  ])('meets the depth limit before anything walks into it: %s is ARGUMENTS_TOO_DEEP, the tool never runs', async (_, text) => {
    const out = await invokeTool(tree, 'tree', { tree: text });
    expect(errorOf(out.response).code).toBe('ARGUMENTS_TOO_DEEP');
    expect(ran).toBe(0);
  });

  it('repairs what fits the limit', async () => {
    const out = await executeToolCall({ call: { id: 'c', name: 'tree', args: { tree: deep(63) } }, tool: tree, availableToolNames: () => [], context: testToolContext() });
    expect(out.response.response).toEqual({ ran: 1 });
    expect(out.response.argumentRepairs).toEqual([{ repair: 'double-encoded-property', path: '/tree' }]);
  });

  it('is ARGUMENTS_TOO_DEEP for a Standard Schema tool too', async () => {
    type Node = { v: number; c?: Node };
    const zodNode: z.ZodType<Node> = z.lazy(() => z.object({ v: z.number().int(), c: zodNode.optional() }).strict());
    const zodTree = functionTool({ name: 'tree', description: 'T.', parameters: z.object({ tree: zodNode }), execute: () => ({ ok: true }) });
    expect(errorOf((await invokeTool(zodTree, 'tree', { tree: deep(5_000) })).response).code).toBe('ARGUMENTS_TOO_DEEP');
  });
});

describe('error responses', () => {
  const big = 'y'.repeat(500_000);
  const throws = functionTool({ name: 'throws', description: 'T.', execute: () => { throw new Error(big); } });
  const throwsDetails = functionTool({ name: 'details', description: 'T.', execute: () => { throw new ToolsmithError('MY_CODE', 'short', { details: { blob: big } }); } });

  it('are cut to the result budget: the code and the start of the message are kept, details left out', async () => {
    const thrown = await invokeTool(throws, 'throws', {});
    expect(JSON.stringify(thrown.response).length).toBeLessThanOrEqual(100_000);
    expect(JSON.stringify(thrown.response).length).toBeGreaterThan(99_990);
    expect(errorOf(thrown.response).code).toBe('TOOL_EXECUTION_FAILED');
    expect(errorOf(thrown.response).message).toMatch(/^The tool failed: y+…$/);
    expect(thrown.error!.message).toHaveLength(`Tool "throws" failed: ${big}`.length); // the error itself is whole

    const detailed = await invokeTool(throwsDetails, 'details', {});
    expect(detailed.response).toEqual({
      error: { code: 'MY_CODE', message: 'short', detailsOmitted: `the error's details were ${JSON.stringify({ blob: big }).length} characters of JSON, over the limit of 100000 for the whole response` },
    });

    const small = await invokeTool(throws, 'throws', {}, { maxResultChars: 300 });
    expect(JSON.stringify(small.response)).toHaveLength(300);
  });
});
