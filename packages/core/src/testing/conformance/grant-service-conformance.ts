import { randomUUID } from 'node:crypto';
import { LlmAgent } from '../../agents/llm-agent';
import { confirmationRequests } from '../../confirmation/confirmation-requests';
import { confirmationResponse } from '../../confirmation/confirmation-response';
import type { GrantService, NewGrant } from '../../confirmation/grant-service';
import { toolSchemaHash } from '../../confirmation/tool-schema-hash';
import type { Content, FunctionResponse } from '../../model/content';
import { Runner } from '../../runner/runner';
import { InMemorySessionService } from '../../sessions/in-memory-session-service';
import { functionTool } from '../../function-tool/function-tool';
import { collect } from '../collect';
import { ScriptedModel } from '../scripted-model';
import { refundTool } from './conformance-tools';

/** Options of {@link runGrantServiceConformance}. */
export interface GrantServiceConformanceOptions {
  /** Names the suite, e.g. `PostgresGrantService (PGlite)`. */
  name: string;
  /** Creates the store, once for the suite (`beforeAll`); every test uses its own random app name. */
  create(): GrantService | Promise<GrantService>;
  /** Releases the store after the suite (`afterAll`). */
  close?(service: GrantService): void | Promise<void>;
}

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

/**
 * Declares the grant-store conformance tests (jest) for one {@link GrantService}: storing, listing and
 * revoking grants per app, which grants apply to a user's session in each scope, and the runner on the
 * store: an approval with `remember` in each scope (session, user, app) lets the next covered call run
 * without asking, marked with the grant's id; expiry, revocation, a changed tool schema and an argument
 * condition each make it ask again; deleting a session (`Runner.deleteSession`) revokes its session grants.
 */
export function runGrantServiceConformance(options: GrantServiceConformanceOptions): void {
  describe(`${options.name}: grant store conformance`, () => {
    let service: GrantService;
    let appName: string;

    beforeAll(async () => {
      service = await options.create();
    });
    afterAll(async () => {
      if (service) await options.close?.(service);
    });
    beforeEach(() => {
      appName = `app-${randomUUID()}`;
    });

    const base = () => ({ appName, toolName: 'refund', schemaHash: 'h1' });

    it('stores, lists (oldest first, by user, session and tool) and revokes grants of one app', async () => {
      const app = await service.createGrant({ ...base(), scope: 'app' });
      const forUser = await service.createGrant({ ...base(), scope: 'user', userId: 'u1', condition: { properties: { amount: { maximum: 100 } } } });
      const forSession = await service.createGrant({ ...base(), scope: 'session', userId: 'u1', sessionId: 's1', toolName: 'delete', expiresAt: 4_000_000_000_000 });
      await service.createGrant({ ...base(), appName: `${appName}-other`, scope: 'app' });

      expect(app.id).not.toBe(forUser.id);
      expect(app.createdAt).toEqual(expect.any(Number));
      expect(forSession).toMatchObject({ scope: 'session', userId: 'u1', sessionId: 's1', toolName: 'delete', expiresAt: 4_000_000_000_000 });
      expect((await service.listGrants({ appName })).map((g) => g.id)).toEqual([app.id, forUser.id, forSession.id]);
      expect(await service.listGrants({ appName, userId: 'u1' })).toEqual([forUser, forSession]);
      expect(await service.listGrants({ appName, userId: 'u1', sessionId: 's1' })).toEqual([forSession]);
      expect(await service.listGrants({ appName, toolName: 'refund' })).toEqual([app, forUser]);

      expect(await service.revokeGrant({ appName: `${appName}-other`, grantId: forUser.id })).toBe(false);
      expect(await service.revokeGrant({ appName, grantId: forUser.id })).toBe(true);
      expect(await service.revokeGrant({ appName, grantId: forUser.id })).toBe(false);
      expect((await service.listGrants({ appName })).map((g) => g.id)).toEqual([app.id, forSession.id]);
    });

    it('finds the grants whose scope covers a user\'s session for a tool', async () => {
      const app = await service.createGrant({ ...base(), scope: 'app' });
      const u1 = await service.createGrant({ ...base(), scope: 'user', userId: 'u1' });
      const s1 = await service.createGrant({ ...base(), scope: 'session', userId: 'u1', sessionId: 's1' });
      await service.createGrant({ ...base(), scope: 'session', userId: 'u2', sessionId: 's1' });
      await service.createGrant({ ...base(), scope: 'user', userId: 'u1', toolName: 'delete' });

      const ids = async (userId: string, sessionId: string) =>
        (await service.applicableGrants({ appName, userId, sessionId, toolName: 'refund' })).map((g) => g.id).sort();
      expect(await ids('u1', 's1')).toEqual([app.id, u1.id, s1.id].sort());
      expect(await ids('u1', 's2')).toEqual([app.id, u1.id].sort());
      expect(await ids('u3', 's1')).toEqual([app.id]);
    });

    it('refuses a grant it cannot keep with INVALID_GRANT, storing nothing (scope, user, session, tool, schema hash, condition, expiry)', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ ...base(), scope: 'everyone' }, '"scope"'],
        [{ ...base(), scope: 'user' }, 'needs a "userId"'],
        [{ ...base(), scope: 'session', userId: 'u1' }, 'needs a "sessionId"'],
        [{ ...base(), scope: 'app', toolName: '' }, '"toolName"'],
        [{ ...base(), scope: 'app', schemaHash: 7 }, '"schemaHash"'],
        [{ ...base(), scope: 'app', condition: 'amount < 100' }, '"condition" must be a JSON Schema object'],
        [{ ...base(), scope: 'app', condition: { type: 'nonsense' } }, '"condition" is not a usable JSON Schema'],
        [{ ...base(), scope: 'app', expiresAt: Date.now() + 0.33333 * 60_000 }, '"expiresAt" must be a whole number'],
        [{ ...base(), scope: 'app', expiresAt: 1e20 }, '"expiresAt" must be a whole number'],
        [{ ...base(), scope: 'app', expiresAt: -1 }, '"expiresAt" must be a whole number'],
        [{ ...base(), scope: 'app', expiresAt: '2030-01-01' }, '"expiresAt" must be a whole number'],
      ];
      for (const [grant, problem] of bad) {
        const refused = await service.createGrant(grant as unknown as NewGrant).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toMatchObject({ code: 'INVALID_GRANT', message: expect.stringContaining(problem) });
      }
      expect(await service.listGrants({ appName })).toEqual([]);
      const edge = await service.createGrant({ ...base(), scope: 'app', expiresAt: Number.MAX_SAFE_INTEGER });
      expect((await service.listGrants({ appName }))).toEqual([edge]);
    });

    describe('the runner on the store', () => {
      function setup(tool = refundTool([])) {
        const sessions = new InMemorySessionService();
        const runner = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
          new Runner({ appName, agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [tool] }), sessionService: sessions, grantService: service });
        /** Asks for a refund of `amount` in the user's session: the refund's response, or `asked` when it waits for the person. */
        const refund = async (amount: number, userId = 'u1', sessionId = 's1', runnerTool = tool): Promise<FunctionResponse | 'asked'> => {
          const r = new Runner({
            appName,
            agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: `call-${randomUUID()}`, name: 'refund', args: { amount } }] }, 'ok']), tools: [runnerTool] }),
            sessionService: sessions,
            grantService: service,
          });
          const events = await collect(r.run({ userId, sessionId, newMessage: user(`refund ${amount}`) }));
          if (events.some((e) => confirmationRequests(e).length > 0)) return 'asked';
          return events.flatMap((e) => e.functionResponses())[0];
        };
        /** Pauses a refund and approves it with `remember`; returns the grant id its response names. */
        const approveRemembering = async (remember: Parameters<typeof confirmationResponse>[1] & { decision: 'approve' }, userId = 'u1', sessionId = 's1') => {
          const paused = await collect(runner([{ calls: [{ id: 'first', name: 'refund', args: { amount: 50 } }] }]).run({ userId, sessionId, newMessage: user('refund 50') }));
          const [request] = confirmationRequests(paused.at(-1)!);
          const done = await collect(runner(['Refunded.']).run({ userId, sessionId, newMessage: confirmationResponse(request, remember) }));
          const response = done[0].functionResponses()[0];
          expect(response).toMatchObject({ response: { refunded: 50 }, confirmation: { decision: 'approve', by: 'user', grantId: expect.any(String) } });
          return response.confirmation!.grantId!;
        };
        /** Deletes the session through a runner on the store (its session grants go with it). */
        const deleteSession = (userId: string, sessionId: string) => runner([]).deleteSession({ userId, sessionId });
        return { refund, approveRemembering, deleteSession };
      }

      it('deleting a session (Runner.deleteSession) revokes its session grants, not its user\'s or the app\'s, nor another session\'s: the same id is asked again', async () => {
        const { refund, approveRemembering, deleteSession } = setup();
        const sessionGrant = await approveRemembering({ decision: 'approve', remember: { scope: 'session' } });
        const otherSession = await approveRemembering({ decision: 'approve', remember: { scope: 'session' } }, 'u1', 's2');
        const hash = toolSchemaHash(refundTool([]).parameters);
        const userGrant = await service.createGrant({ appName, scope: 'user', userId: 'u2', toolName: 'refund', schemaHash: hash });
        const appGrant = await service.createGrant({ appName, scope: 'app', toolName: 'other', schemaHash: hash });
        const sameIdOtherUser = await service.createGrant({ appName, scope: 'session', userId: 'u2', sessionId: 's1', toolName: 'refund', schemaHash: hash });
        expect(await refund(70)).toMatchObject({ confirmation: { by: 'grant', grantId: sessionGrant } });

        await deleteSession('u1', 's1');

        expect((await service.listGrants({ appName })).map((g) => g.id).sort()).toEqual([otherSession, userGrant.id, appGrant.id, sameIdOtherUser.id].sort());
        expect(await refund(70)).toBe('asked'); // a new session under the deleted one's id
        expect(await refund(70, 'u1', 's2')).toMatchObject({ confirmation: { by: 'grant', grantId: otherSession } });
        expect(await service.revokeSessionGrants({ appName, userId: 'u1', sessionId: 's2' })).toBe(1);
        expect(await service.revokeSessionGrants({ appName, userId: 'u1', sessionId: 's2' })).toBe(0);
        expect(await service.revokeSessionGrants({ appName: `${appName}-other`, userId: 'u2', sessionId: 's1' })).toBe(0);
        expect((await service.listGrants({ appName })).map((g) => g.id).sort()).toEqual([userGrant.id, appGrant.id, sameIdOtherUser.id].sort());
      });

      it('session scope: the same session runs the next call without asking, marked with the grant; another session asks', async () => {
        const { refund, approveRemembering } = setup();
        const grantId = await approveRemembering({ decision: 'approve', remember: { scope: 'session' } });
        expect(await refund(70)).toEqual({ id: expect.any(String), name: 'refund', response: { refunded: 70 }, confirmation: { decision: 'approve', by: 'grant', grantId } });
        expect(await refund(70, 'u1', 's2')).toBe('asked');
        expect(await service.listGrants({ appName })).toEqual([
          expect.objectContaining({ id: grantId, scope: 'session', userId: 'u1', sessionId: 's1', toolName: 'refund', schemaHash: toolSchemaHash(refundTool([]).parameters) }),
        ]);
      });

      it('user scope covers the user\'s other sessions, not another user; app scope covers everyone', async () => {
        const { refund, approveRemembering } = setup();
        await approveRemembering({ decision: 'approve', remember: { scope: 'user' } });
        expect(await refund(70, 'u1', 's2')).toMatchObject({ confirmation: { by: 'grant' } });
        expect(await refund(70, 'u2', 's9')).toBe('asked');
        await approveRemembering({ decision: 'approve', remember: { scope: 'app' } }, 'u3', 's3');
        expect(await refund(70, 'u2', 's9')).toMatchObject({ confirmation: { by: 'grant' } });
      });

      it('refuses an approval whose "remember" the store could not keep (a fractional, huge or past expiry) before storing anything: the request stays open', async () => {
        const tool = refundTool([]);
        const sessions = new InMemorySessionService();
        const runner = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
          new Runner({ appName, agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [tool] }), sessionService: sessions, grantService: service });
        const paused = await collect(runner([{ calls: [{ id: 'first', name: 'refund', args: { amount: 50 } }] }]).run({ userId: 'u1', sessionId: 's1', newMessage: user('refund 50') }));
        const [request] = confirmationRequests(paused.at(-1)!);
        const stored = async () => (await sessions.getSession({ appName, userId: 'u1', sessionId: 's1' }))!.events.length;
        const before = await stored();
        for (const [expiresAt, problem] of [
          [Date.now() + 0.33333 * 60_000, '"remember.expiresAt" must be a whole number'],
          [1e20, '"remember.expiresAt" must be a whole number'],
          [Date.now() - 1000, '"remember.expiresAt" must be in the future'],
        ] as const) {
          const refused = await collect(runner([]).run({ userId: 'u1', sessionId: 's1', newMessage: confirmationResponse(request, { decision: 'approve', remember: { scope: 'user', expiresAt } }) }));
          expect(refused.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
          expect(refused[0].errorMessage).toContain(problem);
        }
        expect(await stored()).toBe(before);
        expect(await service.listGrants({ appName })).toEqual([]);
        const done = await collect(runner(['Refunded.']).run({ userId: 'u1', sessionId: 's1', newMessage: confirmationResponse(request, { decision: 'approve', remember: { scope: 'user', expiresAt: Date.now() + 20_000 } }) }));
        expect(done[0].functionResponses()[0]).toMatchObject({ response: { refunded: 50 }, confirmation: { by: 'user', grantId: expect.any(String) } });
      });

      it('asks again once the grant expired or was revoked, when the tool\'s schema changed, and for arguments its condition refuses', async () => {
        const { refund } = setup();
        const hash = toolSchemaHash(refundTool([]).parameters);
        const expired = await service.createGrant({ appName, scope: 'user', userId: 'u1', toolName: 'refund', schemaHash: hash, expiresAt: Date.now() - 1 });
        expect(await refund(70)).toBe('asked');
        await service.revokeGrant({ appName, grantId: expired.id });
        const living = await service.createGrant({ appName, scope: 'user', userId: 'u1', toolName: 'refund', schemaHash: hash, expiresAt: Date.now() + 3_600_000 });
        expect(await refund(70)).toMatchObject({ confirmation: { by: 'grant', grantId: living.id } });

        const changed = functionTool<{ amount: number; reason: string }>({
          name: 'refund',
          description: 'Refunds an amount, with a reason.',
          parameters: { type: 'object', properties: { amount: { type: 'number' }, reason: { type: 'string' } }, required: ['amount'] },
          requireConfirmation: true,
          execute: (args) => ({ refunded: args.amount }),
        });
        expect(await refund(70, 'u1', 's1', changed)).toBe('asked');

        expect(await service.revokeGrant({ appName, grantId: living.id })).toBe(true);
        expect(await refund(70)).toBe('asked');
        await service.createGrant({ appName, scope: 'user', userId: 'u1', toolName: 'refund', schemaHash: hash, condition: { properties: { amount: { maximum: 100 } } } });
        expect(await refund(90)).toMatchObject({ confirmation: { by: 'grant' } });
        expect(await refund(250)).toBe('asked');
      });
    });
  });
}
