import { McpToolset } from './mcp-toolset';
import { sourceProcessArgs } from './__fixtures__/source-process';
import { callThrough, errorCode, toolContext } from './__fixtures__/tool-harness';

/** A toolset of the hostile fixture server, listing the tools `hostile` names beside its good one. */
function hostileToolset(hostile: string): McpToolset {
  return new McpToolset({ transport: { command: process.execPath, args: sourceProcessArgs('hostile-schemas-mcp-server.ts'), env: { HOSTILE: hostile }, stderr: 'ignore' } });
}

/** The warnings the process emits while `body` runs, as [code, message]. */
async function warningsDuring(body: () => Promise<void>): Promise<Array<[string | undefined, string]>> {
  const emit = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await body();
    return emit.mock.calls.map(([message, options]) => [(options as { code?: string } | undefined)?.code, String(message)]);
  } finally {
    emit.mockRestore();
  }
}

describe("McpToolset: a remote server's schema is untrusted input", () => {
  it('checks its patterns with a linear-time engine (RE2): no pattern can freeze the process', async () => {
    const toolset = hostileToolset('redos');
    try {
      // A pattern RE2 does not take (a lookaround) is not checked here: the server checks its own arguments.
      expect((await callThrough(toolset, 'lookahead', { x: 'bbb' })).response).toEqual({ output: 'called lookahead with {"x":"bbb"}' });
      const nested = await callThrough(toolset, 'nested', { x: `${'a'.repeat(100_000)}!` });
      expect(errorCode(nested)).toBe('INVALID_ARGUMENTS');
      expect(JSON.stringify(nested.response)).toContain('expected a string matching \\"^(a+)+$\\"');
      // Backtracking takes minutes on these (the unanchored one too: n² steps); RE2 milliseconds.
      expect(errorCode(await callThrough(toolset, 'unanchored', { x: 'a'.repeat(100_000) }))).toBe('INVALID_ARGUMENTS');
      expect(errorCode(await callThrough(toolset, 'unanchored', { [`${'b'.repeat(100_000)}!`]: 'not a number' }))).toBeUndefined();
      expect(errorCode(await callThrough(toolset, 'unanchored', { bbb: 'not a number' }))).toBe('INVALID_ARGUMENTS');
      expect((await callThrough(toolset, 'nested', { x: 'aaa' })).response).toEqual({ output: 'called nested with {"x":"aaa"}' });
      expect((await callThrough(toolset, 'unanchored', { x: 'abx' })).response).toEqual({ output: 'called unanchored with {"x":"abx"}' });
    } finally {
      await toolset.close();
    }
  });

  it('leaves out a tool whose schema is invalid, with a warning naming the tool and the problem, and offers the rest', async () => {
    const toolset = hostileToolset('invalid');
    try {
      const warnings = await warningsDuring(async () => {
        expect((await toolset.getTools(toolContext())).map((tool) => tool.name)).toEqual(['good']);
        await toolset.getTools(toolContext()); // warned once, not on every listing
      });
      expect(warnings).toEqual([
        ['TOOLSMITH_MCP_TOOL_LEFT_OUT', expect.stringMatching(/^MCP server stdio:node: tool "bad_schema" is left out: its input schema is not a valid JSON Schema: schema is invalid: data\/properties\/x\/type must be /)],
      ]);
      expect(errorCode(await callThrough(toolset, 'bad_schema', { x: 1 }))).toBe('TOOL_NOT_FOUND');
      expect((await callThrough(toolset, 'good', { x: 'ok' })).response).toEqual({ output: 'called good with {"x":"ok"}' });
    } finally {
      await toolset.close();
    }
  });

  it("leaves out a tool named as one of the runner's pause requests, with a warning: the model cannot call it", async () => {
    const toolset = hostileToolset('reserved');
    try {
      const warnings = await warningsDuring(async () => {
        expect((await toolset.getTools(toolContext())).map((tool) => tool.name)).toEqual(['good']);
      });
      expect(warnings).toEqual(
        ['toolsmith_request_confirmation', 'toolsmith_request_credential'].map((name) => [
          'TOOLSMITH_MCP_TOOL_LEFT_OUT',
          `MCP server stdio:node: tool "${name}" is left out: its name "${name}" is reserved for the runner's pause requests, and a call of it would be taken for one.`,
        ]),
      );
      expect(errorCode(await callThrough(toolset, 'toolsmith_request_confirmation', {}))).toBe('TOOL_NOT_FOUND');
    } finally {
      await toolset.close();
    }
  });

  it('never lets two tools share a name for the model by the order of the listing: the one whose own name it is keeps it, the others are left out', async () => {
    const toolset = hostileToolset('clash');
    const long = 'x'.repeat(64);
    try {
      const warnings = await warningsDuring(async () => {
        expect((await toolset.getTools(toolContext())).map((tool) => tool.name)).toEqual(['good', 'a_b']);
      });
      expect(warnings).toEqual([
        ['TOOLSMITH_MCP_TOOL_LEFT_OUT', 'MCP server stdio:node: tool "a.b" is left out: its name for the model would be "a_b" (characters other than letters, digits, _ and - made _, cut at 64), as would that of "a_b"; "a_b", whose own name it is, is offered.'],
        ['TOOLSMITH_MCP_TOOL_LEFT_OUT', `MCP server stdio:node: tool "${long}1" is left out: its name for the model would be "${long}" (characters other than letters, digits, _ and - made _, cut at 64), as would that of "${long}2"; none of them is offered.`],
        ['TOOLSMITH_MCP_TOOL_LEFT_OUT', `MCP server stdio:node: tool "${long}2" is left out: its name for the model would be "${long}" (characters other than letters, digits, _ and - made _, cut at 64), as would that of "${long}1"; none of them is offered.`],
      ]);
      expect((await callThrough(toolset, 'a_b', {})).response).toEqual({ output: 'called a_b with {}' });
    } finally {
      await toolset.close();
    }
  });
});
