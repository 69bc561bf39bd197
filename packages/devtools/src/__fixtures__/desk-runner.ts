// The desk agent behind a Runner the module builds itself: `toolsmith` then uses the runner's own
// session store, which lives as long as this module (tests resume sessions across commands with it).
import { InMemorySessionService, Runner } from '@toolsmith/core';
import { agent, providers } from './desk-agent';

export const runner = new Runner({ appName: 'desk_app', agent, sessionService: new InMemorySessionService(), providers });
export { providers };
