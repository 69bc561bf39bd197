import { join } from 'node:path';
import type { TestPostgres } from '../../packages/postgres/src/__fixtures__/test-postgres';
import { startTestPostgres } from '../../packages/postgres/src/__fixtures__/test-postgres';

// A smoke run of the session-claims bench (one tiny round of everything): it must keep running. It
// measures nothing; the only numbers checked are counts (round trips, failed turns), never times.
// It runs the compiled bench (`npm test` builds it first), so its child processes start as plain Node.
const { main } = require(join(__dirname, '..', 'dist', 'session-claims.bench.js')) as typeof import('./session-claims.bench');
let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

it('runs every measurement once: round trips per turn with and without claims, turns with 2 processes', async () => {
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(String(text)));
  try {
    const report = await main({ url: server.url, smoke: true });

    // A turn on an existing session: get + 4 appends; with claims, the claim reads the session (no
    // get) and its release adds 1.
    expect(report.perTurn['PostgreSQL (pg, localhost)']).toMatchObject({ roundTripsWithout: 5, roundTripsWith: 6 });
    expect(report.perTurn['PGlite (memory)']).toMatchObject({ roundTripsWithout: 5, roundTripsWith: 6 });
    expect(report.failedTurns).toEqual({ 2: 0 });
    expect(Object.keys(report.turnsPerSecond)).toEqual(['2']);
    expect(printed.join('\n')).toContain('Turns per second on 2 sessions');
  } finally {
    log.mockRestore();
  }
}, 180_000);
