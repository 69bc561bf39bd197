import 'reflect-metadata';
import { InMemorySessionService, LlmAgent, Runner } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { gcFunction, heapUsed } from './measure';

/** Result of {@link runSessionHeapBench}: retained heap per idle session. */
export interface SessionHeapResult {
  sessions: number;
  /** Bytes per freshly created, empty session. */
  emptyBytesPerSession: number;
  /** Bytes per session after one turn (user message + answer: two stored events). */
  afterOneTurnBytesPerSession: number;
}

/** Heap held by `count` idle sessions in {@link InMemorySessionService}, empty and after one turn. */
export async function runSessionHeapBench(count = 10_000): Promise<SessionHeapResult> {
  const gc = gcFunction();

  let service: InMemorySessionService | undefined = new InMemorySessionService();
  let before = heapUsed(gc);
  for (let i = 0; i < count; i++) await service.createSession({ appName: 'bench', userId: `user-${i % 100}`, sessionId: `session-${i}` });
  const emptyBytesPerSession = (heapUsed(gc) - before) / count;
  // Read the service after measuring, so it is still alive while measured.
  if ((await service.listSessions({ appName: 'bench', userId: 'user-0' })).length === 0) throw new Error('sessions missing');
  service = undefined;

  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: new ScriptedModel(() => 'Hello!') }), sessionService });
  before = heapUsed(gc);
  for (let i = 0; i < count; i++) {
    for await (const event of runner.run({ userId: `user-${i % 100}`, sessionId: `session-${i}`, newMessage: { role: 'user', parts: [{ text: 'Hi' }] } })) void event;
  }
  const afterOneTurnBytesPerSession = (heapUsed(gc) - before) / count;
  if ((await sessionService.listSessions({ appName: 'bench', userId: 'user-0' })).length === 0) throw new Error('sessions missing');
  return { sessions: count, emptyBytesPerSession, afterOneTurnBytesPerSession };
}

/** Prints {@link runSessionHeapBench} results. */
export async function main(): Promise<void> {
  const r = await runSessionHeapBench();
  console.log(`Heap per idle session (${r.sessions.toLocaleString('en')} sessions, InMemorySessionService):`);
  console.log(`  empty session            ${Math.round(r.emptyBytesPerSession)} bytes`);
  console.log(`  after one turn (2 events) ${Math.round(r.afterOneTurnBytesPerSession)} bytes`);
}

if (require.main === module) void main();
