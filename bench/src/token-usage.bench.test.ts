import { join } from 'node:path';

// The token benchmark's harness must keep measuring what it claims: every framework's whole
// conversation on every API, captured at the local server. It checks counts and contents, never sizes
// against each other (those are the benchmark's report). It runs the compiled bench (`npm test` builds it first).
const { FACTS, measureTokenUsage } = require(join(__dirname, '..', 'dist', 'token-usage.bench.js')) as typeof import('./token-usage.bench');
const { MODEL_TURNS } = require(join(__dirname, '..', 'dist', 'token-usage', 'travel-app.js')) as typeof import('./token-usage/travel-app');

it('captures the whole conversation of every framework on every API, and counts it', async () => {
  const rows = await measureTokenUsage();

  expect(rows.map((r) => `${r.api} ${r.framework}`)).toEqual([
    'chat Toolsmith',
    'chat AI SDK',
    'chat OpenAI Agents',
    'responses Toolsmith',
    'responses AI SDK',
    'responses OpenAI Agents',
    'anthropic Toolsmith',
    'anthropic AI SDK',
    'gemini Toolsmith',
    'gemini AI SDK',
  ]);
  for (const row of rows) {
    // One request per scripted turn, each a JSON body declaring the four tools; the run reached the answer.
    expect(row.requests).toBe(MODEL_TURNS.length);
    expect(row.captured.answer).toBe(MODEL_TURNS.at(-1)!.text);
    for (const request of row.captured.requests) expect(JSON.stringify(request.body.tools)).toContain('cancel_booking');
    // The last request carries the whole conversation.
    expect(row.captured.requests.at(-1)!.rawBody).toContain('call_5');
    expect(row.bytes).toBe(row.captured.requests.reduce((sum, r) => sum + Buffer.byteLength(r.rawBody), 0));
    expect(row.toolBytes).toBeGreaterThan(0);
    if (row.api === 'gemini') expect(row.tokens).toBeUndefined();
    else expect(row.tokens).toBeGreaterThan(row.bytes / 10);
  }
  // Toolsmith keeps every fact the model needs on every API: each constraint, each problem of the
  // invalid call, the tool's failure. (The peers' losses are the report's, not the test's.)
  for (const row of rows.filter((r) => r.framework === 'Toolsmith')) expect(row.factsKept).toEqual(Object.keys(FACTS));
  // The fact finder finds what is missing: OpenAI Agents tells the model only that an error occurred.
  expect(rows.find((r) => r.framework === 'OpenAI Agents')!.factsKept).not.toContain('tool failure');
  // Per tool: OpenAI Agents declares book_flight's passenger bounds but drops search_flights', which is where the model needs them.
  expect(rows.find((r) => r.framework === 'OpenAI Agents')!.factsKept).not.toContain('minimum 1');
}, 60_000);
