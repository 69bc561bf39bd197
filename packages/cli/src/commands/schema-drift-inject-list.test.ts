import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIo } from '../cli-io';
import { main } from '../main';

// A toolset in standard decorators (no experimentalDecorators): its dependencies are named by the
// `inject` list, so a parameter typed with an interface is no drift there; one the list leaves out is.
const SOURCE = `import { Injectable, Tool, Toolset } from '@toolsmith/core';

/** What tells the time. */
export interface Clock {
  now(): string;
}

@Injectable()
export class Audit {}

@Toolset({ inject: ['CLOCK'] })
export class ListedTools {
  constructor(private readonly clock: Clock) {}

  /** The time. */
  @Tool()
  now(): string {
    return this.clock.now();
  }
}

@Toolset({ inject: [Audit] })
export class ShortListTools {
  constructor(readonly audit: Audit, private readonly clock: Clock) {}

  /** The time. */
  @Tool()
  later(): string {
    return this.clock.now();
  }
}
`;

describe('toolsmith schema --check and inject lists', () => {
  let dir: string;
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('takes a parameter named by the inject list as injected by its token, and reports one the list leaves out', async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-inject-list-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'node_modules', '@toolsmith'), { recursive: true });
    symlinkSync(resolve(__dirname, '..', '..', '..', 'core'), join(dir, 'node_modules', '@toolsmith', 'core'));
    writeFileSync(join(dir, 'src', 'tools.ts'), SOURCE);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: true, outDir: 'out', rootDir: 'src', types: [] }, include: ['src'] }),
    );
    let stderr = '';
    const io: CliIo = { stdout: { write: () => undefined, isTTY: false }, stderr: { write: (chunk) => void (stderr += chunk), isTTY: false }, cwd: dir };
    expect(await main(['schema', '-q'], io)).toBe(0);
    stderr = '';
    expect(await main(['schema', '--check', '-q'], io)).toBe(1);
    expect(stderr).toContain('1 place where a type and what the runtime is told about it disagree:');
    expect(stderr).toMatch(/src\/tools\.ts:\d+:\d+: constructor parameter clock of ShortListTools is typed Clock, an interface/);
    expect(stderr).not.toContain('ListedTools is typed');
    // Standard decorators have no @Inject: the fix names the inject list.
    expect(stderr).toContain("Fix: inject it by token: name CLOCK_TOKEN at position 1 of the class's inject list (@Toolset({ inject: [...] })) with a provider");
    expect(stderr).not.toContain('@Inject(');
  }, 60_000);
});
