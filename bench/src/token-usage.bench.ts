import { aiSdkTravel } from './token-usage/ai-sdk-travel';
import { type CapturedConversation, captureRequests } from './token-usage/capture-requests';
import { tokenizerFor } from './token-usage/count-tokens';
import { openAIAgentsTravel } from './token-usage/openai-agents-travel';
import { toolsmithTravel } from './token-usage/toolsmith-travel';
import type { WireApi } from './token-usage/wire-replies';
import { table } from './measure';

/** The frameworks compared; Toolsmith is the first, the one every ratio is of. */
export type Framework = 'Toolsmith' | 'AI SDK' | 'OpenAI Agents';

/** What one framework sent over the travel conversation on one API. */
export interface TokenUsage {
  api: WireApi;
  framework: Framework;
  /** Number of model requests (the same script for everyone). */
  requests: number;
  /** UTF-8 bytes of all request bodies. */
  bytes: number;
  /** Bytes of the tool declarations (`tools` of the first request). */
  toolBytes: number;
  /** Tokens of all request bodies by the family's tokenizer; absent where none is published. */
  tokens?: number;
  /** Tokens of the tool declarations of the first request. */
  toolTokens?: number;
  tokenizer?: string;
  /** The {@link FACTS} the model could read in the last request (the whole conversation). */
  factsKept: string[];
  /** The captured conversation, for checks. */
  captured: CapturedConversation;
}

/**
 * What the model needs to know in this conversation, each looked for in the last request (the whole
 * conversation): the schema's constraints in the declaration of the tool that has them
 * (`search_flights`: a constraint another tool declares does not count), each problem of the invalid
 * call and the failing tool's message in the rest. Patterns allow for the JSON escaping of text in a string.
 */
export const FACTS: Readonly<Record<string, { in: 'tools' | 'conversation'; tool?: string; pattern: RegExp }>> = {
  'pattern ^[A-Z]{3}$': { in: 'tools', tool: 'search_flights', pattern: /\^\[A-Z\]\{3\}\$/ },
  'format date': { in: 'tools', tool: 'search_flights', pattern: /format\\*"\s*:\s*\\*"date/ },
  'minimum 1': { in: 'tools', tool: 'search_flights', pattern: /minimum\\*"\s*:\s*1\b/ },
  'maximum 9': { in: 'tools', tool: 'search_flights', pattern: /maximum\\*"\s*:\s*9\b/ },
  integer: { in: 'tools', tool: 'search_flights', pattern: /integer/ },
  'problem: from': { in: 'conversation', pattern: /must match pattern/ },
  'problem: date': { in: 'conversation', pattern: /Invalid ISO date/ },
  'problem: passengers': { in: 'conversation', pattern: />=\s*1/ },
  'tool failure': { in: 'conversation', pattern: /departs within 24 hours/ },
};

/** The {@link FACTS} found in `body` (a request body as sent). */
function factsIn(body: { tools?: unknown }): string[] {
  const { tools, ...conversation } = body;
  const text = (fact: string) => {
    const { in: where, tool } = FACTS[fact];
    if (where === 'conversation') return JSON.stringify(conversation);
    return JSON.stringify(tool === undefined ? (tools ?? []) : (declarationOf(tools, tool) ?? null));
  };
  return Object.keys(FACTS).filter((fact) => FACTS[fact].pattern.test(text(fact)));
}

/** The declaration of tool `name` in `tools` as any API writes it: the object whose own `name` it is (with its schema beside it). */
function declarationOf(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && (value as { name?: unknown }).name === name) return value;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    const found = declarationOf(child, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

const APPS: Record<Framework, { apis: readonly WireApi[]; run: (api: WireApi, baseURL: string) => Promise<string> }> = {
  Toolsmith: { apis: ['chat', 'responses', 'anthropic', 'gemini'], run: toolsmithTravel },
  'AI SDK': { apis: ['chat', 'responses', 'anthropic', 'gemini'], run: aiSdkTravel },
  'OpenAI Agents': { apis: ['chat', 'responses'], run: (api, baseURL) => openAIAgentsTravel(api as 'chat' | 'responses', baseURL) },
};

/** Runs the travel conversation on every framework and API, and measures what each sent. */
export async function measureTokenUsage(apis: readonly WireApi[] = ['chat', 'responses', 'anthropic', 'gemini']): Promise<TokenUsage[]> {
  const rows: TokenUsage[] = [];
  for (const api of apis) {
    const tokenizer = tokenizerFor(api);
    for (const [framework, app] of Object.entries(APPS) as Array<[Framework, (typeof APPS)[Framework]]>) {
      if (!app.apis.includes(api)) continue;
      const captured = await captureRequests(api, (baseURL) => app.run(api, baseURL));
      const bodies = captured.requests.map((r) => r.rawBody);
      const tools = JSON.stringify(captured.requests[0].body?.tools ?? []);
      rows.push({
        api,
        framework,
        requests: bodies.length,
        bytes: bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0),
        toolBytes: Buffer.byteLength(tools),
        tokens: tokenizer && bodies.reduce((sum, body) => sum + tokenizer.count(body), 0),
        toolTokens: tokenizer?.count(tools),
        tokenizer: tokenizer?.name,
        factsKept: factsIn(captured.requests.at(-1)!.body),
        captured,
      });
    }
  }
  return rows;
}

/** Prints {@link measureTokenUsage}: per API, each framework's bytes and tokens, and Toolsmith's ratio to it. */
export async function main(): Promise<void> {
  const rows = await measureTokenUsage();
  console.log('Request size over one conversation (4 tools; a call, an invalid call and its retry, a confirmed call, a failing call, the answer):');
  console.log('Every request body the official SDK sent, captured at a local server; tokens by the family\'s tokenizer on the body as sent.\n');
  const out: string[][] = [['API', 'framework', 'requests', 'bytes', 'tokens', 'tools bytes', 'tools tokens', 'facts', 'Toolsmith/this (tokens or bytes)']];
  for (const row of rows) {
    const ours = rows.find((r) => r.api === row.api && r.framework === 'Toolsmith')!;
    const ratio = row.tokens !== undefined ? ours.tokens! / row.tokens : ours.bytes / row.bytes;
    out.push([
      row.api,
      row.framework,
      String(row.requests),
      String(row.bytes),
      row.tokens === undefined ? '–' : String(row.tokens),
      String(row.toolBytes),
      row.toolTokens === undefined ? '–' : String(row.toolTokens),
      `${row.factsKept.length}/${Object.keys(FACTS).length}`,
      row.framework === 'Toolsmith' ? '' : `${ratio.toFixed(3)}×`,
    ]);
  }
  console.log(table(out));
  const tokenizers = [...new Set(rows.map((r) => `${r.api}: ${r.tokenizer ?? 'bytes (no published tokenizer)'}`))];
  console.log(`\nTokenizers: ${tokenizers.join('; ')}.`);
  console.log(`Facts: of ${Object.keys(FACTS).join(', ')}, how many the model could read in the last request.`);
  for (const row of rows) {
    const lost = Object.keys(FACTS).filter((fact) => !row.factsKept.includes(fact));
    if (lost.length) console.log(`  ${row.api} ${row.framework} lost: ${lost.join(', ')}`);
  }
}

if (require.main === module) void main();
