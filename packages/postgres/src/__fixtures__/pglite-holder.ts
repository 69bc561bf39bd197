// A separate OS process holding a PGlite data directory (argv[2]) open: it stores a session with a few
// events, tells the parent { ready, pid } over IPC, and stays until the parent kills it or says 'exit'.
import { Event } from '@toolsmith/core';
import { PostgresSessionService } from '../index';

const [dataDir] = process.argv.slice(2);
const store = PostgresSessionService.embedded({ dataDir });

void (async () => {
  const session = await store.createSession({ appName: 'app', userId: 'u', sessionId: 'kept' });
  for (let i = 0; i < 5; i++) await store.appendEvent(session, Event.create({ invocationId: 'i', author: 'bot', content: { role: 'model', parts: [{ text: `event ${i}` }] } }));
  process.send!({ ready: true, pid: process.pid });
})();

process.on('message', (message: string) => {
  if (message === 'exit') void store.close().then(() => process.exit(0));
});
