import { toolCallFeedback } from '../errors/messages';
import { ToolsmithError, type ToolsmithErrorOptions } from '../errors/toolsmith-error';
import { functionTool } from '../function-tool/function-tool';
import { invokeTool } from '../testing/invoke-tool';
import { testToolContext } from '../testing/test-tool-context';
import { toolFile } from '../tools/tool-file';
import { errorResponse, executeToolCall } from './tool-executor';

// The model reads each error response with the call it answers, which names the tool: the response's
// message does not name it again ("The tool failed: …"); the error, for developers, does.

const shop = functionTool({
  name: 'shop',
  description: 'Does what it is asked, badly.',
  parameters: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
  responseSchema: { type: 'object', properties: { total: { type: 'integer' } } },
  execute: ({ what }, ctx): unknown => {
    if (what === 'throw') throw new Error('db down');
    if (what === 'empty') throw new Error('');
    if (what === 'blank') throw new Error('  ');
    if (what === 'empty string') throw '';
    if (what === 'hang') return new Promise(() => ctx.signal.aborted);
    if (what === 'bigint') return { total: 1n };
    if (what === 'negative') return { total: 'negative' };
    if (what === 'files') return toolFile({ mimeType: 'text/plain', data: Buffer.from('twelve bytes').toString('base64') });
    if (what === 'other') throw new ToolsmithError('TOOL_EXECUTION_FAILED', 'Tool "warehouse" failed: out of stock');
    return { total: 1 };
  },
});

/** The call's error response and the error's own message, for `args` under `options`. */
async function failure(args: unknown, options: Parameters<typeof invokeTool>[3] = {}): Promise<[code: string, response: string, error: string]> {
  const out = await invokeTool(shop, 'shop', args as never, options);
  const error = out.response.error as { code: string; message: string };
  expect(error.code).toBe(out.error!.code);
  return [error.code, error.message, out.error!.message];
}

describe("the model-facing message of a tool call's error", () => {
  it('says "the tool", "the arguments" where the error names the tool, for every error of a call', async () => {
    expect(await failure({ what: 'throw' })).toEqual(['TOOL_EXECUTION_FAILED', 'The tool failed: db down', 'Tool "shop" failed: db down']);
    expect(await failure({ what: 'throw' }, { toolErrorExposure: 'generic' })).toEqual(['TOOL_EXECUTION_FAILED', 'The tool failed.', 'Tool "shop" failed.']);
    // An error with no message to show reads as the generic text, not "The tool failed: ".
    for (const what of ['empty', 'blank', 'empty string']) expect(await failure({ what })).toEqual(['TOOL_EXECUTION_FAILED', 'The tool failed.', 'Tool "shop" failed.']);
    expect(await failure({ what: 'hang' }, { toolTimeoutMs: 1 })).toEqual([
      'TOOL_TIMEOUT',
      'The tool did not finish within 1 ms and was cancelled.',
      'Tool "shop" did not finish within 1 ms and was cancelled.',
    ]);
    expect(await failure({ what: 'negative' })).toEqual([
      'TOOL_OUTPUT_INVALID',
      'The tool returned a result that does not match its output schema: total: got "negative", expected integer.',
      'Tool "shop" returned a result that does not match its output schema: total: got "negative", expected integer.',
    ]);
    const [code, response, error] = await failure({ what: 'bigint' }, { toolOutputValidation: 'off' });
    expect([code, response, error]).toEqual(['INVALID_TOOL_RESULT', expect.stringMatching(/^The tool returned a result that is not JSON: /), `Tool "shop"${response.slice('The tool'.length)}`]);
    expect(await failure({ what: 'files' }, { maxToolFileBytes: 5 })).toEqual([
      'TOOL_FILES_TOO_LARGE',
      "The tool returned files of 12 bytes together, over the limit of 5 bytes. Return smaller files, or raise the runner's maxToolFileBytes.",
      'Tool "shop" returned files of 12 bytes together, over the limit of 5 bytes. Return smaller files, or raise the runner\'s maxToolFileBytes.',
    ]);
    expect(await failure('[1]')).toEqual(['MALFORMED_ARGUMENTS', expect.stringMatching(/^The arguments are not a valid JSON object: /), expect.stringMatching(/^Arguments for tool "shop" are not a valid JSON object: /)]);
    expect(await failure({ what: 'x'.repeat(20) }, { limits: { maxChars: 10, maxDepth: 64 } })).toEqual([
      'ARGUMENTS_TOO_LARGE',
      'The arguments are larger than 10 characters.',
      'Arguments for tool "shop" are larger than 10 characters.',
    ]);
    expect(await failure({ what: { deeper: {} } }, { limits: { maxChars: 1000, maxDepth: 1 } })).toEqual([
      'ARGUMENTS_TOO_DEEP',
      'The arguments are nested deeper than 1 levels.',
      'Arguments for tool "shop" are nested deeper than 1 levels.',
    ]);
    expect(await failure({ what: 1 })).toEqual(['INVALID_ARGUMENTS', 'Invalid arguments: what: got 1, expected string.', 'Invalid arguments for tool "shop": what: got 1, expected string.']);
  });

  it('keeps a message that names another tool, and the name of a tool that is not offered (the name is the news)', async () => {
    expect(await failure({ what: 'other' })).toEqual(['TOOL_EXECUTION_FAILED', 'Tool "warehouse" failed: out of stock', 'Tool "warehouse" failed: out of stock']);
    const missing = await executeToolCall({ call: { id: 'c', name: 'shop_nope', args: {} }, tool: undefined, availableToolNames: () => ['shop'], context: testToolContext() });
    expect(missing.response.response.error).toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'Tool "shop_nope" is not available. Available tools: shop.' });
  });

  it("leaves out the details its message states (the error keeps them); any others are sent", async () => {
    const timedOut = await invokeTool(shop, 'shop', { what: 'hang' }, { toolTimeoutMs: 1 });
    expect(timedOut.response).toEqual({ error: { code: 'TOOL_TIMEOUT', message: 'The tool did not finish within 1 ms and was cancelled.' } });
    expect(timedOut.error!.details).toEqual({ timeoutMs: 1 });
    const tooLarge = await invokeTool(shop, 'shop', { what: 'files' }, { maxToolFileBytes: 5 });
    expect(tooLarge.response.error).not.toHaveProperty('details');
    expect(tooLarge.error!.details).toEqual({ bytes: 12, maxBytes: 5 });
    const missing = await executeToolCall({ call: { id: 'c', name: 'nope', args: {} }, tool: undefined, availableToolNames: () => ['shop', 'shop_add'], context: testToolContext() });
    expect(missing.response.response).toEqual({ error: { code: 'TOOL_NOT_FOUND', message: 'Tool "nope" is not available. Available tools: shop, shop_add.' } });
    expect(missing.error!.details).toEqual({ availableTools: ['shop', 'shop_add'] });

    // A message that does not state them (a tool's own error with that code) keeps its details, as do other members.
    const own = new ToolsmithError('TOOL_TIMEOUT', 'The warehouse timed out.', { details: { timeoutMs: 5 } });
    expect(errorResponse({ id: 'c', name: 'shop' }, own).response).toEqual({ error: { code: 'TOOL_TIMEOUT', message: 'The warehouse timed out.', details: { timeoutMs: 5 } } });
    const more = new ToolsmithError('TOOL_TIMEOUT', 'Tool "shop" did not finish within 5 ms and was cancelled.', { details: { timeoutMs: 5, retryable: true } });
    expect(errorResponse({ id: 'c', name: 'shop' }, more).response).toEqual({ error: { code: 'TOOL_TIMEOUT', message: 'The tool did not finish within 5 ms and was cancelled.', details: { retryable: true } } });
    // Stated of another tool: kept.
    expect(errorResponse({ id: 'c', name: 'other' }, more).response).toEqual({ error: { code: 'TOOL_TIMEOUT', message: more.message, details: { timeoutMs: 5, retryable: true } } });
  });

  it("leaves out the details an error class declares its message states (statedDetails, nested ones too); the error keeps them and looks as it did", () => {
    interface QuotaDetails {
      quota: { limit: number; window: string; plan: string };
      retryAfterS: number;
    }
    class QuotaError extends ToolsmithError {
      constructor(toolName: string, details: QuotaDetails) {
        const options: ToolsmithErrorOptions<QuotaDetails> = { details, statedDetails: [['quota', 'limit'], ['quota', 'window'], ['retryAfterS']] };
        super('QUOTA', `Tool "${toolName}" is over its quota of ${details.quota.limit} calls per ${details.quota.window}; try again in ${details.retryAfterS} s.`, options);
      }
    }
    const details: QuotaDetails = { quota: { limit: 10, window: 'minute', plan: 'free' }, retryAfterS: 30 };
    const error = new QuotaError('shop', details);
    expect(errorResponse({ id: 'c', name: 'shop' }, error).response).toEqual({
      error: { code: 'QUOTA', message: 'The tool is over its quota of 10 calls per minute; try again in 30 s.', details: { quota: { plan: 'free' } } },
    });
    // A member left empty goes too; nothing left, no details.
    const { plan: _, ...quota } = details.quota;
    expect(errorResponse({ id: 'c', name: 'shop' }, new QuotaError('shop', { ...details, quota: quota as QuotaDetails['quota'] })).response).toEqual({
      error: { code: 'QUOTA', message: 'The tool is over its quota of 10 calls per minute; try again in 30 s.' },
    });
    // The error, for developers: its details whole (not copied), its JSON and its own keys as without the declaration.
    expect(error.details).toBe(details);
    expect(details).toEqual({ quota: { limit: 10, window: 'minute', plan: 'free' }, retryAfterS: 30 });
    expect(error.toJSON()).toEqual({ name: 'QuotaError', code: 'QUOTA', message: 'Tool "shop" is over its quota of 10 calls per minute; try again in 30 s.', details });
    expect(Object.keys(error)).toEqual(Object.keys(new ToolsmithError('QUOTA', error.message, { details })));
    expect(error.statedDetails).toEqual([['quota', 'limit'], ['quota', 'window'], ['retryAfterS']]);
  });

  it('changes only the start, where it names exactly the called tool', () => {
    const feedback = (message: string) => toolCallFeedback('t', { code: 'X', message });
    expect(feedback('Tool "t" failed: Tool "t" said no')).toBe('The tool failed: Tool "t" said no');
    expect(feedback('Tool "t2" failed: no')).toBe('Tool "t2" failed: no');
    expect(feedback('The call to tool "t" was denied by policy: "no". Do not retry it unless the user asks.')).toBe('The call was denied by policy: "no". Do not retry it unless the user asks.');
    expect(feedback('The user rejected the call to tool "t" and said: "no".')).toBe('The user rejected the call and said: "no".');
    expect(feedback('It failed: Tool "t" failed')).toBe('It failed: Tool "t" failed');
  });
});
