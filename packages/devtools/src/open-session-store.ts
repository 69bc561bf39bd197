import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionService } from '@toolsmith/core';
import { InMemorySessionService } from '@toolsmith/core';
import type { SessionStoreInfo } from './protocol/api-types';

/** A session store opened for the dev tools, with what the page says about it. */
export interface OpenedSessionStore {
  /** The store. */
  sessionService: SessionService;
  /** What the page and `GET /api/info` say about it. */
  info: SessionStoreInfo;
  /** Releases the store (the embedded database); nothing to do in memory. */
  close(): Promise<void>;
}

/** Options of {@link openSessionStore}. */
export interface OpenSessionStoreOptions {
  /** The project directory; the embedded store lives in `<dir>/.toolsmith/sessions`. */
  projectDir: string;
  /** `memory` keeps sessions in memory even when `@toolsmith/postgres` is installed. */
  store?: 'auto' | 'memory';
}

/** The part of `@toolsmith/postgres` used here, loaded only when installed (devtools must work without it). */
interface PostgresModule {
  PostgresSessionService: {
    embedded(options: { dataDir: string }): SessionService & { migrate?(): Promise<void>; close?(): Promise<void> };
  };
}

/**
 * Opens where the dev tools keep sessions: `@toolsmith/postgres`'s embedded durable store in
 * `<projectDir>/.toolsmith/sessions` when that package is installed, else memory (sessions end with
 * the process). The returned `info` says which, and why memory was chosen.
 */
export async function openSessionStore(options: OpenSessionStoreOptions): Promise<OpenedSessionStore> {
  if (options.store === 'memory') return inMemory('in memory (--memory): sessions end with the process');
  let postgres: PostgresModule;
  try {
    postgres = require('@toolsmith/postgres') as PostgresModule;
  } catch {
    return inMemory('in memory: sessions end with the process (install @toolsmith/postgres to keep them)');
  }
  const dataDir = join(options.projectDir, '.toolsmith', 'sessions');
  // PGlite creates the last directory only; `.toolsmith/` may not exist yet.
  mkdirSync(dataDir, { recursive: true });
  const sessionService = postgres.PostgresSessionService.embedded({ dataDir });
  // Open and migrate now, so a store that cannot open fails the command at startup, not the first request.
  await sessionService.migrate?.();
  return {
    sessionService,
    info: { kind: 'embedded', durable: true, description: `embedded PostgreSQL (PGlite) in ${dataDir}` },
    close: async () => {
      await sessionService.close?.();
    },
  };
}

function inMemory(description: string): OpenedSessionStore {
  return { sessionService: new InMemorySessionService(), info: { kind: 'memory', durable: false, description }, close: async () => undefined };
}
