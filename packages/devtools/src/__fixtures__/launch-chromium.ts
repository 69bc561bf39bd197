import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext} from 'playwright-core';
import { chromium } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; `CHROMIUM_PATH` overrides it. */
const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/**
 * Launches headless Chromium with a fresh profile. The flags keep it from reaching the network on its
 * own (updates, sync, QUIC), which fails in a closed network; `extraArgs` adds flags (e.g. host resolver rules).
 * With no browser installed this throws:
 * the browser tests fail rather than pass without running.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
  if (!existsSync(executablePath)) {
    throw new Error(
      `No Chromium at ${executablePath}: the dev UI's browser tests need one. Install Debian's package ` +
        '(`apt-get install -y chromium`, as .ci/run does) or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'toolsmith-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
