import { LlmAgent, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromAdkEvalSet, toAdkEvalSet } from './adk-evalset';
import type { EvalSet } from './eval-set';
import { readEvalSetFile } from './read-eval-set-file';
import { runEvalSet } from './run-eval-set';

// Real eval sets of google/adk-python (see __fixtures__/adk/SOURCES.md).
const ADK = join(__dirname, '__fixtures__', 'adk');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(ADK, name), 'utf8'));
const CONVERSATIONS = ['dependent_tool_calls.test.json', 'roll_die.test.json', 'elicitation_flow.test.json'];

/** ADK's file without what its models treat as absent: null values, and a final_response with no text. */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue;
    if (key === 'final_response' && !(item as { parts: Array<{ text?: string | null }> }).parts.some((p) => typeof p.text === 'string')) continue;
    out[key] = withoutDefaults(item);
  }
  return out;
}

describe("ADK's eval set format", () => {
  it('reads a multi-turn case: user messages, expected calls with their whole arguments, final answers, ids and times', () => {
    expect(fromAdkEvalSet(fixture('dependent_tool_calls.test.json'))).toEqual({
      id: '1be50511-ff75-4d68-b2d7-2165cbdc1044',
      name: '1be50511-ff75-4d68-b2d7-2165cbdc1044',
      createdAt: 1747340826.108275,
      cases: [
        {
          id: 'tests/integration/fixture/home_automation_agent/test_files/dependent_tool_calls.test.json',
          createdAt: 1747340826.108262,
          turns: [
            {
              id: 'cbece1c0-3811-45c0-96fc-9a4279075483',
              user: 'Turn off device_2 in the Bedroom.',
              tools: { match: 'exact', calls: [{ name: 'set_device_info', args: { location: 'Bedroom', status: 'OFF', device_id: 'device_2' }, exactArgs: true }] },
              answer: { exact: 'I have set the device 2 status to off.' },
              createdAt: 1747340826.1082227,
            },
            {
              id: 'cc85cdae-4258-4b94-8fe7-a985b8356190',
              user: "What's the status of device_2 in the Bedroom?",
              tools: { match: 'exact', calls: [{ name: 'get_device_info', args: { device_id: 'device_2' }, exactArgs: true }] },
              answer: { exact: 'Status of device_2 is off.' },
              createdAt: 1747340826.1082554,
            },
          ],
        },
      ],
    });
  });

  it('reads a turn whose final_response has no text (it ended on a call) as one with no answer expectation', () => {
    const [first, second] = fromAdkEvalSet(fixture('elicitation_flow.test.json')).cases[0].turns;
    expect(first).not.toHaveProperty('answer');
    expect(first.tools?.calls[0].name).toBe('trigger_elicitation');
    expect(second.answer).toEqual({ exact: 'Successfully booked flight to London on 2026-05-15 for Alice.' });
  });

  it.each(CONVERSATIONS)('round-trips %s: written back, it is the file without its null defaults', (name) => {
    const original = fixture(name);
    const set = fromAdkEvalSet(original);
    const written = toAdkEvalSet(set);
    expect(written).toEqual(withoutDefaults(original));
    expect(fromAdkEvalSet(JSON.parse(JSON.stringify(written)))).toEqual(set);
  });

  it('reads camelCase keys (the aliases of ADK\'s models) as their snake_case names', () => {
    const camel = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(camel)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k === 'args' ? k : k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), k === 'args' ? v : camel(v)]))
          : value;
    const original = fixture('dependent_tool_calls.test.json');
    expect(fromAdkEvalSet(camel(original))).toEqual(fromAdkEvalSet(original));
  });

  it('reads session_input as the case user, state and app, and writes it back', () => {
    const [, scripted] = (fixture('live_non_blocking_tool_agent.evalset.json') as { eval_cases: unknown[] }).eval_cases;
    const set = fromAdkEvalSet({ eval_set_id: 'live', eval_cases: [scripted] });
    expect(set.cases[0]).toEqual({
      id: 'background_task_scripted',
      userId: 'test_user_id',
      appName: 'live_non_blocking_tool_agent',
      initialState: {},
      turns: [{ user: 'Please start a slow background task to index my documents.' }, { user: 'While that runs, what is two plus two?' }],
    });
    expect(toAdkEvalSet(set).eval_cases[0]).toEqual(withoutDefaults(scripted));
  });

  it('reads the expected calls of the invocation_events form of intermediate_data', () => {
    const set = fromAdkEvalSet({
      evalSetId: 'events',
      evalCases: [
        {
          evalId: 'c',
          conversation: [
            {
              userContent: { role: 'user', parts: [{ text: 'Lights off' }] },
              intermediateData: {
                invocationEvents: [
                  { author: 'home', content: { role: 'model', parts: [{ function_call: { name: 'set_device_info', args: { status: 'OFF' } } }] } },
                  { author: 'home', content: { role: 'user', parts: [{ function_response: { name: 'set_device_info', response: { ok: true } } }] } },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(set.cases[0].turns[0]).toEqual({ user: 'Lights off', tools: { match: 'exact', calls: [{ name: 'set_device_info', args: { status: 'OFF' }, exactArgs: true }] } });
  });

  it('refuses a simulated-user case (conversation_scenario) and what is not an ADK eval set', () => {
    expect(() => fromAdkEvalSet(fixture('live_non_blocking_tool_agent.evalset.json'))).toThrow(
      expect.objectContaining({ code: 'EVAL_SET_UNSUPPORTED', message: expect.stringContaining('ADK eval case background_task_scenario holds a conversation_scenario') }),
    );
    expect(() => fromAdkEvalSet({ cases: [] })).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID' }));
    expect(() => fromAdkEvalSet({ eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [{ user_content: { parts: [{ inline_data: { mime_type: 'image/png', data: 'AA==' } }] } }] }] })).toThrow(
      expect.objectContaining({ code: 'EVAL_SET_UNSUPPORTED' }),
    );
  });

  it('reads arguments as literal values: one that looks like a matcher is compared as it is and written back as it was', () => {
    const adk = {
      eval_set_id: 's',
      eval_cases: [{ eval_id: 'c', conversation: [{ user_content: { parts: [{ text: 'x' }] }, intermediate_data: { tool_uses: [{ name: 'f', args: { q: { $pattern: '^a' }, r: { $equals: 1 }, n: 2, deep: [{ where: { $pattern: 'x' } }] } }], intermediate_responses: [] } }] }],
    };
    const set = fromAdkEvalSet(adk);
    expect(set.cases[0].turns[0].tools?.calls[0].args).toEqual({ q: { $equals: { $pattern: '^a' } }, r: { $equals: { $equals: 1 } }, n: 2, deep: { $equals: [{ where: { $pattern: 'x' } }] } });
    expect(toAdkEvalSet(set).eval_cases[0].conversation[0].intermediate_data).toEqual(adk.eval_cases[0].conversation[0].intermediate_data);
  });

  it('refuses a tool use without a name or with args that are not an object, and an unknown answers option', () => {
    const withUses = (tool_uses: unknown[]) => ({ eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [{ user_content: { parts: [{ text: 'x' }] }, intermediate_data: { tool_uses } }] }] });
    expect(() => fromAdkEvalSet(withUses([{ args: {} }, { name: 'f', args: '{"q":1}' }]))).toThrow(
      expect.objectContaining({
        code: 'EVAL_SET_INVALID',
        message: 'The ADK eval set is not a valid eval set:\n  - case c, invocation 0: tool call 0 needs a name\n  - case c, invocation 0: the args of tool call 1 must be an object',
      }),
    );
    expect(() => fromAdkEvalSet(withUses([]), { answers: 'bogus' as 'ignore' })).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID', message: expect.stringContaining('the answers option must be "exact" or "ignore", not "bogus"') }));
  });

  it('refuses every field of the wrong type for ADK\'s models, all at once, each with its case and invocation', () => {
    const inv = (extra: object) => ({ invocation_id: 'i', user_content: { role: 'user', parts: [{ text: 'hi' }] }, ...extra });
    const adk = {
      eval_set_id: 's',
      creation_timestamp: 'yesterday',
      eval_cases: [
        {
          eval_id: 'a',
          session_input: { app_name: 'app', user_id: 'u', state: [] },
          conversation: [
            inv({ intermediate_data: { tool_uses: { name: 't' } } }),
            inv({ intermediate_data: { invocation_events: [{ content: null }, { author: 'x', content: { parts: 'f' } }] } }),
            inv({ user_content: { parts: [{ text: 5 }] }, creation_timestamp: '1747340826' }),
            inv({ final_response: 'done', intermediate_data: { tool_uses: [null] } }),
          ],
        },
        { eval_id: 'b', session_input: 5, conversation: [null] },
      ],
    };
    expect(() => fromAdkEvalSet(adk)).toThrow(
      expect.objectContaining({
        code: 'EVAL_SET_INVALID',
        message: [
          'The ADK eval set is not a valid eval set:',
          '  - case a, invocation 0: intermediate_data.tool_uses must be an array',
          '  - case a, invocation 1: invocation_events[0] must be an object with an author (a string)',
          '  - case a, invocation 1: invocation_events[1].content must be a Content (an object whose parts are an array)',
          '  - case a, invocation 2: user_content part 0: text must be a string',
          '  - case a, invocation 2: creation_timestamp must be a number (seconds since the epoch)',
          '  - case a, invocation 3: tool call 0 must be an object',
          '  - case a, invocation 3: final_response must be a Content (an object whose parts are an array)',
          '  - case a: session_input.state must be an object',
          '  - case b, invocation 0: must be an object',
          '  - case b: session_input must be an object',
          '  - creation_timestamp must be a number (seconds since the epoch)',
        ].join('\n'),
      }),
    );
  });

  it('reads args: null as a call without arguments, and an event without content as no call, as ADK does', () => {
    const set = fromAdkEvalSet({
      eval_set_id: 's',
      eval_cases: [
        {
          eval_id: 'c',
          conversation: [
            { user_content: { parts: [{ text: 'x' }] }, intermediate_data: { tool_uses: [{ id: null, name: 'listOrders', args: null }] } },
            { user_content: { parts: [{ text: 'y' }] }, intermediate_data: { invocation_events: [{ author: 'shop', content: null }, { author: 'shop', content: { parts: null } }] } },
          ],
        },
      ],
    });
    expect(set.cases[0].turns.map((turn) => turn.tools)).toEqual([
      { match: 'exact', calls: [{ name: 'listOrders', args: {}, exactArgs: true }] },
      { match: 'exact', calls: [] },
    ]);
  });

  it('keeps a __proto__ argument as a key of the expected arguments', () => {
    const json = JSON.parse('{"eval_set_id":"s","eval_cases":[{"eval_id":"c","conversation":[{"user_content":{"parts":[{"text":"x"}]},"intermediate_data":{"tool_uses":[{"name":"t","args":{"__proto__":{"polluted":1}}}]}}]}]}');
    const args = fromAdkEvalSet(json).cases[0].turns[0].tools!.calls[0].args!;
    expect(Object.keys(args)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('reads the answer as ADK joins it: the non-empty text parts with a line break, thought parts left out', () => {
    const set = fromAdkEvalSet({
      eval_set_id: 's',
      eval_cases: [
        {
          eval_id: 'c',
          conversation: [{ user_content: { parts: [{ text: 'x' }] }, final_response: { parts: [{ text: 'Let me think…', thought: true }, { text: 'Order A-1' }, { text: '' }, { text: 'has shipped.' }], role: 'model' } }],
        },
      ],
    });
    expect(set.cases[0].turns[0].answer).toEqual({ exact: 'Order A-1\nhas shipped.' });
  });

  it('reads a set with no case (adk web creates one first), which is refused when it runs', async () => {
    const set = fromAdkEvalSet({ eval_set_id: 's', eval_cases: [] });
    expect(set.cases).toEqual([]);
    const agent = new LlmAgent({ name: 'a', model: new ScriptedModel([]) });
    await expect(runEvalSet(set, { agent })).rejects.toMatchObject({ code: 'EVAL_SET_INVALID', message: expect.stringContaining('cases must not be empty when the set runs') });
  });

  it('does not write what ADK cannot hold: other modes, matchers, answers', () => {
    const base = (turn: EvalSet['cases'][number]['turns'][number]): EvalSet => ({ id: 's', cases: [{ id: 'c', turns: [turn] }] });
    const refusals: Array<[EvalSet, string]> = [
      [base({ user: 'x', tools: { match: 'inOrder', calls: [] } }), 'calls matched inOrder'],
      [base({ user: 'x', tools: { calls: [{ name: 'f', args: { q: /a/ }, exactArgs: true }] } }), 'a call of f whose arguments'],
      [base({ user: 'x', tools: { calls: [{ name: 'f', args: { q: 'a' } }] } }), 'a call of f whose arguments'],
      [base({ user: 'x', answer: { contains: 'a' } }), 'an answer that contains'],
    ];
    for (const [set, what] of refusals) {
      expect(() => toAdkEvalSet(set)).toThrow(expect.objectContaining({ code: 'EVAL_SET_UNSUPPORTED', message: expect.stringContaining(`case c, turn 0 expects ${what}`) }));
    }
  });

  it('runs an ADK eval set against an agent: the home automation case passes on an agent that behaves as recorded', async () => {
    const devices = new Map([['device_2', 'ON']]);
    const setDeviceInfo = functionTool({
      name: 'set_device_info',
      description: 'Sets a device status.',
      parameters: { type: 'object', properties: { location: { type: 'string' }, device_id: { type: 'string' }, status: { type: 'string' } }, required: ['device_id', 'status'] },
      execute: (args: { device_id: string; status: string }) => (devices.set(args.device_id, args.status), { ok: true }),
    });
    const getDeviceInfo = functionTool({
      name: 'get_device_info',
      description: 'Reads a device status.',
      parameters: { type: 'object', properties: { device_id: { type: 'string' } }, required: ['device_id'] },
      execute: (args: { device_id: string }) => ({ status: devices.get(args.device_id) }),
    });
    const model = new ScriptedModel((request) => {
      const last = request.contents[request.contents.length - 1];
      const text = last.parts[0].text ?? '';
      if (text.startsWith('Turn off')) return { calls: [{ name: 'set_device_info', args: { location: 'Bedroom', device_id: 'device_2', status: 'OFF' } }] };
      if (text.startsWith("What's the status")) return { calls: [{ name: 'get_device_info', args: { device_id: 'device_2' } }] };
      const response = last.parts[0].functionResponse!;
      return response.name === 'set_device_info' ? 'I have set the device 2 status to off.' : `Status of device_2 is ${String((response.response as { status: string }).status).toLowerCase()}.`;
    });
    const agent = new LlmAgent({ name: 'home', model, tools: [setDeviceInfo, getDeviceInfo] });
    const set = fromAdkEvalSet(fixture('dependent_tool_calls.test.json'));
    expect((await runEvalSet(set, { agent })).pass).toBe(true);
    expect(devices.get('device_2')).toBe('OFF');
  });
});

describe('readEvalSetFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-evals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads ADK files and Toolsmith files, telling them apart by eval_set_id', () => {
    expect(readEvalSetFile(join(ADK, 'roll_die.test.json')).cases[0].turns).toHaveLength(3);
    expect(readEvalSetFile(join(ADK, 'roll_die.test.json'), { adkAnswers: 'ignore' }).cases[0].turns.some((t) => t.answer)).toBe(false);
    const own = join(dir, 'own.json');
    writeFileSync(own, JSON.stringify({ id: 'own', cases: [{ id: 'a', turns: [{ user: 'Hi', tools: { match: 'subset', calls: [{ name: 'f', args: { q: { $pattern: '^x' } } }] } }] }] }));
    expect(readEvalSetFile(own).cases[0].turns[0].tools).toEqual({ match: 'subset', calls: [{ name: 'f', args: { q: { $pattern: '^x' } } }] });
    const camel = join(dir, 'camel.evalset.json');
    writeFileSync(camel, JSON.stringify({ evalSetId: 'c', evalCases: [{ evalId: 'a', conversation: [{ userContent: { parts: [{ text: 'Hi' }] } }] }] }));
    expect(readEvalSetFile(camel)).toEqual({ id: 'c', cases: [{ id: 'a', turns: [{ user: 'Hi' }] }] });
  });

  it('reads a file that starts with a UTF-8 byte order mark, in either format', () => {
    const own = join(dir, 'bom.json');
    writeFileSync(own, `\uFEFF${JSON.stringify({ id: 'bom', cases: [{ id: 'a', turns: [{ user: 'Hi' }] }] })}`);
    expect(readEvalSetFile(own)).toEqual({ id: 'bom', cases: [{ id: 'a', turns: [{ user: 'Hi' }] }] });
    const adk = join(dir, 'bom.evalset.json');
    writeFileSync(adk, `\uFEFF${readFileSync(join(ADK, 'roll_die.test.json'), 'utf8')}`);
    expect(readEvalSetFile(adk).cases[0].turns).toHaveLength(3);
  });

  it('says clearly when the file is missing, not JSON, or not an eval set', () => {
    expect(() => readEvalSetFile(join(dir, 'nope.json'))).toThrow(expect.objectContaining({ code: 'EVAL_SET_NOT_FOUND', message: expect.stringContaining('nope.json: ENOENT') }));
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{ "id": ');
    expect(() => readEvalSetFile(notJson)).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID', message: expect.stringContaining('is not JSON') }));
    const noCases = join(dir, 'nocases.json');
    writeFileSync(noCases, '{ "id": "x" }');
    expect(() => readEvalSetFile(noCases)).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID', message: `${noCases} is not a valid eval set:\n  - cases must be an array` }));
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ id: 'e', cases: [] }));
    expect(readEvalSetFile(empty).cases).toEqual([]);
    // ADK's older .test.json format (a list of queries, which AgentEvaluator migrates) is not read.
    const legacy = join(dir, 'legacy.test.json');
    writeFileSync(legacy, JSON.stringify([{ query: 'Hi', expected_tool_use: [], reference: 'Hello' }]));
    expect(() => readEvalSetFile(legacy)).toThrow(
      expect.objectContaining({ code: 'EVAL_SET_INVALID', message: `${legacy} is not a valid eval set:\n  - it is ADK's older .test.json format (a list of queries), which is not read: migrate it to an eval set with ADK first (python -c "from google.adk.evaluation.agent_evaluator import AgentEvaluator; AgentEvaluator.migrate_eval_data_to_new_schema('old.test.json', 'new.test.json')"), then read the new file` }),
    );
    expect(() => fromAdkEvalSet([{ query: 'Hi', expected_tool_use: [], reference: 'Hello' }])).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID', message: expect.stringContaining("ADK's older .test.json format") }));
    // Another list is no such file: the set check says what it is not.
    const list = join(dir, 'list.json');
    writeFileSync(list, JSON.stringify([{ id: 'c' }]));
    expect(() => readEvalSetFile(list)).toThrow(expect.objectContaining({ code: 'EVAL_SET_INVALID', message: `${list} is not a valid eval set:\n  - (root) must be an object` }));
  });
});
