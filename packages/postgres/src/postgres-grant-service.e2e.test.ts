import { LlmAgent, Runner, confirmationRequests, confirmationResponse, type Content, type Event, functionTool, toolSchemaHash } from '@toolsmith/core';
import { ScriptedModel, collect, runGrantServiceConformance } from '@toolsmith/core/testing';
import { PostgresDatabase } from './postgres-database';
import { PostgresGrantService } from './postgres-grant-service';
import { PostgresSessionService } from './postgres-session-service';
import { dropSchema, useTestPostgres } from './__fixtures__/test-postgres';

const server = useTestPostgres('grants');

runGrantServiceConformance({
  name: 'PostgresGrantService (PGlite, in memory)',
  create: () => new PostgresGrantService({ embedded: true }),
  close: (service) => (service as PostgresGrantService).database.close(),
});

runGrantServiceConformance({
  name: 'PostgresGrantService (pg, real server)',
  create: () => new PostgresGrantService({ connectionString: server.url, schema: server.schema }),
  close: (service) => (service as PostgresGrantService).database.close(),
});

const refundTool = () =>
  functionTool<{ amount: number }>({
    name: 'refund',
    description: 'Refunds an amount.',
    parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    requireConfirmation: true,
    execute: (args) => ({ refunded: args.amount }),
  });
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

describe('PostgresGrantService on a real server, two processes', () => {
  const schema = `${server.schema}_two`;
  afterAll(() => dropSchema(server.url, schema));

  it('a grant remembered through one runner covers the next call in another runner on its own connections, until revoked there', async () => {
    // Two "processes": each with its own pool, session store and grant store on the same database.
    const open = () => {
      const database = PostgresDatabase.open({ connectionString: server.url, schema, poolSize: 2 });
      return { database, sessionService: new PostgresSessionService({ database }), grantService: new PostgresGrantService({ database }) };
    };
    const [a, b] = [open(), open()];
    try {
      const runnerOn = (p: ReturnType<typeof open>, script: ConstructorParameters<typeof ScriptedModel>[0]) =>
        new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refundTool()] }), ...p });

      const paused = await collect(runnerOn(a, [{ calls: [{ id: 'c1', name: 'refund', args: { amount: 50 } }] }]).run({ userId: 'u1', sessionId: 's1', newMessage: user('refund 50') }));
      const [request] = confirmationRequests(paused.at(-1)!);
      const remembered = await collect(
        runnerOn(a, ['Refunded.']).run({ userId: 'u1', sessionId: 's1', newMessage: confirmationResponse(request, { decision: 'approve', remember: { scope: 'user', condition: { properties: { amount: { maximum: 100 } } } } }) }),
      );
      const grantId = remembered[0].functionResponses()[0].confirmation!.grantId!;

      const [grant] = await b.grantService.listGrants({ appName: 'shop', userId: 'u1' });
      expect(grant).toEqual({
        id: grantId,
        appName: 'shop',
        scope: 'user',
        userId: 'u1',
        toolName: 'refund',
        schemaHash: toolSchemaHash(refundTool().parameters),
        condition: { properties: { amount: { maximum: 100 } } },
        createdAt: expect.any(Number),
      });

      const granted: Event[] = await collect(runnerOn(b, [{ calls: [{ id: 'c2', name: 'refund', args: { amount: 80 } }] }, 'Done.']).run({ userId: 'u1', sessionId: 's2', newMessage: user('refund 80') }));
      expect(granted.flatMap((e) => e.functionResponses())).toEqual([{ id: 'c2', name: 'refund', response: { refunded: 80 }, confirmation: { decision: 'approve', by: 'grant', grantId } }]);

      expect(await Promise.all([b.grantService.revokeGrant({ appName: 'shop', grantId }), a.grantService.revokeGrant({ appName: 'shop', grantId })])).toEqual(
        expect.arrayContaining([true, false]),
      );
      const asked = await collect(runnerOn(a, [{ calls: [{ id: 'c3', name: 'refund', args: { amount: 80 } }] }]).run({ userId: 'u1', sessionId: 's3', newMessage: user('refund 80') }));
      expect(confirmationRequests(asked.at(-1)!)).toHaveLength(1);
    } finally {
      await a.database.close();
      await b.database.close();
    }
  });
});
