import { Injectable, Module } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { Param, Runner, Tool, Toolset, confirmationRequests, confirmationResponse } from '@toolsmith/core';
import type { Content } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import { PostgresSessionService } from '@toolsmith/postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolsmithModule } from './toolsmith.module';
import { TOOLSMITH_SESSION_SERVICE } from './toolsmith.tokens';

/** Records refunds that really ran, across both app instances of a test. */
const ledger: number[] = [];

@Toolset()
@Injectable()
class RefundTools {
  @Tool({ description: 'Refunds an amount.', requireConfirmation: true })
  refund(@Param('amount') amount: number) {
    ledger.push(amount);
    return { refunded: amount };
  }
}

@Module({ providers: [RefundTools] })
class RefundModule {}

/** Where the embedded database lives: what a real app would read from its configuration. */
@Injectable()
class SessionConfig {
  constructor(readonly dataDir: string) {}
}

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = () =>
  new ScriptedModel((request) => (request.contents.at(-1)?.parts.some((part) => part.functionResponse) ? 'Refunded 250.' : { calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }] }));

describe('ToolsmithModule with the PostgreSQL session store (embedded PGlite on disk)', () => {
  let dataDir: string;
  const modules: TestingModule[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolsmith-nest-sessions-'));
    ledger.length = 0;
  });
  afterEach(async () => {
    for (const moduleRef of modules.splice(0)) {
      await (moduleRef.get(TOOLSMITH_SESSION_SERVICE) as PostgresSessionService).close();
      await moduleRef.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One app instance: forRoot with the store, or forRootAsync building it from configuration. */
  async function startApp(kind: 'forRoot' | 'forRootAsync'): Promise<Runner> {
    @Module({ providers: [{ provide: SessionConfig, useValue: new SessionConfig(dataDir) }], exports: [SessionConfig] })
    class ConfigModule {}
    const toolsmith =
      kind === 'forRoot'
        ? ToolsmithModule.forRoot({ appName: 'shop', agent: { name: 'clerk', model: model() }, sessionService: PostgresSessionService.embedded({ dataDir }) })
        : ToolsmithModule.forRootAsync({
            imports: [ConfigModule],
            inject: [SessionConfig],
            useFactory: (config: SessionConfig) => ({ appName: 'shop', agent: { name: 'clerk', model: model() }, sessionService: PostgresSessionService.embedded({ dataDir: config.dataDir }) }),
          });
    const moduleRef = await Test.createTestingModule({ imports: [RefundModule, toolsmith] }).compile();
    modules.push(moduleRef);
    return moduleRef.get(Runner);
  }

  async function stopApp(): Promise<void> {
    const moduleRef = modules.pop()!;
    await (moduleRef.get(TOOLSMITH_SESSION_SERVICE) as PostgresSessionService).close();
    await moduleRef.close();
  }

  it.each(['forRoot', 'forRootAsync'] as const)('%s: a refund paused in one app instance is approved in the next one, and runs once', async (kind) => {
    const first = await startApp(kind);
    expect(first.sessionService).toBeInstanceOf(PostgresSessionService);
    const paused = await collect(first.run({ userId: 'u', sessionId: 's', newMessage: user('refund 250') }));
    const [request] = confirmationRequests(paused.at(-1)!);
    await stopApp(); // the first instance goes away; only the directory remains

    const second = await startApp(kind);
    const answer = confirmationResponse(request, { confirmed: true });
    const events = await collect(second.run({ userId: 'u', sessionId: 's', newMessage: answer }));
    expect(events.at(-1)!.text()).toBe('Refunded 250.');
    const again = await collect(second.run({ userId: 'u', sessionId: 's', newMessage: answer }));
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(ledger).toEqual([250]);
  });
});
