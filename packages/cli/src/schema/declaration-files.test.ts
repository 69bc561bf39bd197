import { loadManifest } from '@toolsmith/core';
import { hashSource } from '@toolsmith/core/internal';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../main';

// A project whose tool and type schemas are built from declarations in other files, some of them
// reached only through a member, a `keyof` or an alias's JSDoc, next to files the schemas do not use.
const FILES: Record<string, string> = {
  'src/tools.ts': `import { Tool, Toolset, manifestType } from '@toolsmith/core';
import type { Order, Priority } from './order';
import type { Stop } from './stop';
import { formatCity } from './format';

@Toolset()
export class OrderTools {
  /** Updates an order. */
  @Tool()
  update(order: Order, field: keyof Stop, priority: Priority = 'low') {
    return { id: order.id, field, priority, city: formatCity(order.stops[0]?.city ?? '') };
  }
}

export const answer = manifestType<Order>('Answer');
`,
  'src/order.ts': `import type { Stop } from './stop';
/** @minimum 1 */
export type Priority = 'low' | 'high';
export interface Order { id: string; stops: Stop[] }
`,
  'src/stop.ts': `export interface Stop { city: string; nights: number }
`,
  'src/format.ts': `export function formatCity(city: string): string { return city.trim(); }
`,
};

describe('the files a manifest entry was built from', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-dependencies-'));
    mkdirSync(join(dir, 'src'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'commonjs', strict: true, experimentalDecorators: true, skipLibCheck: true }, include: ['src'] }),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const io = () => {
    let stderr = '';
    return { io: { stdout: { write: () => undefined }, stderr: { write: (chunk: string) => void (stderr += chunk) }, cwd: dir }, stderr: () => stderr };
  };

  it('records every imported file whose declarations the schemas use, with its hash, and startup checks them', async () => {
    expect(await main(['schema', '-q'], io().io)).toBe(0);
    const path = join(dir, 'toolsmith.schema.json');
    const manifest = loadManifest(path, { onStale: 'error' });
    const recorded = (name: string) => ({ source: name, sourceHash: hashSource(FILES[name]) });
    // format.ts gives code, not a declaration of a schema: it is not recorded.
    expect(manifest.document.toolsets.OrderTools.dependencies).toEqual([recorded('src/order.ts'), recorded('src/stop.ts')]);
    expect(manifest.document.types?.Answer).toMatchObject({ source: 'src/order.ts', dependencies: [recorded('src/stop.ts')] });
    expect(manifest.methodFor('OrderTools', 'update')).toBeDefined();

    // Only a file two imports away changes; the toolset's own file does not.
    writeFileSync(join(dir, 'src/stop.ts'), 'export interface Stop { city: string; nights: number; country: string }\n');
    const stale = loadManifest(path, { onStale: 'error' });
    expect(() => stale.methodFor('OrderTools', 'update')).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringContaining('src/stop.ts') }));
    expect(() => stale.typeSchema('Answer')).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE' }));
    const check = io();
    expect(await main(['schema', '--check', '-q'], check.io)).toBe(1);
    expect(check.stderr()).toContain("the files toolset OrderTools's schemas were built from (src/stop.ts) changed");
  });

  it('records the re-exporting files a type was imported through, and a re-export that changes makes the entry stale', async () => {
    const files: Record<string, string> = {
      'src/tools.ts': `import { Tool, Toolset } from '@toolsmith/core';
import type { Stop } from './barrel';
import type { ReStatus } from './named';
import type * as Ns from './ns-barrel';

@Toolset()
export class TripTools {
  @Tool()
  plan(stop: Stop, status: ReStatus, page: Ns.Page, next: import('./type-barrel').Next) { return { stop, status, page, next }; }
}
`,
      'src/barrel.ts': "export * from './middle';\n",
      'src/middle.ts': "export * from './inner';\n",
      'src/named.ts': "export { Status as ReStatus } from './inner';\n",
      'src/inner.ts': "export interface Stop { city: string }\nexport type Status = 'open' | 'shipped';\n",
      'src/ns-barrel.ts': "export * from './page';\n",
      'src/page.ts': 'export interface Page { size: number }\n',
      'src/type-barrel.ts': "export * from './next';\n",
      'src/next.ts': 'export interface Next { cursor: string }\n',
      'src/inner2.ts': "export interface Stop { city: string; country: string }\nexport type Status = 'open' | 'cancelled';\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    expect(await main(['schema', '-q'], io().io)).toBe(0);
    const path = join(dir, 'toolsmith.schema.json');
    const recorded = (name: string) => ({ source: name, sourceHash: hashSource(files[name]) });
    expect(loadManifest(path).document.toolsets.TripTools.dependencies).toEqual(
      ['src/barrel.ts', 'src/inner.ts', 'src/middle.ts', 'src/named.ts', 'src/next.ts', 'src/ns-barrel.ts', 'src/page.ts', 'src/type-barrel.ts'].map(recorded),
    );
    expect(loadManifest(path, { onStale: 'error' }).methodFor('TripTools', 'plan')).toBeDefined();

    for (const [file, text] of [['src/middle.ts', "export * from './inner2';\n"], ['src/named.ts', "export { Status as ReStatus } from './inner2';\n"]]) {
      writeFileSync(join(dir, file), text);
      expect(() => loadManifest(path, { onStale: 'error' }).methodFor('TripTools', 'plan')).toThrow(
        expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringContaining(`(${file}) changed`) }),
      );
      writeFileSync(join(dir, file), files[file]);
    }
  });
});
