import { TURNS, measureCompaction } from './compaction.bench';

// The compaction benchmark's harness must keep measuring what it claims: the same 200-turn conversation
// under each strategy, every turn reaching its answer, and summaries made only by `summarize`. It checks
// counts, never sizes or times against each other (those are the benchmark's report).
it('runs the same 200 turns under each strategy, with compaction events only when summarizing', async () => {
  const rows = await measureCompaction();
  expect(rows.map((r) => r.strategy)).toEqual(['none', 'trim (keepTurns 10)', 'summarize (everyTurns 20, keepTurns 4)']);
  for (const row of rows) expect(row.agentRequests).toBe(2 * TURNS);
  expect(rows.map((r) => [r.summaryRequests, r.compactions])).toEqual([
    [0, 0],
    [0, 0],
    [TURNS / 20, TURNS / 20],
  ]);
});
