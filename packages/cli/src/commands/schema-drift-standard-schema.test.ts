import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../__fixtures__/run-cli';

// `@Param(name, { schema })` with a Standard Schema: the schema's declared output type is compared with
// the parameter's type, the way a literal JSON Schema is.
const SOURCE = `import { Param, Tool, Toolset } from '@toolsmith/core';
import * as v from 'valibot';
import { z } from 'zod';

@Toolset()
export class StandardTools {
  /** Agrees: a string for a string, an optional number for an optional parameter, a narrower union. */
  @Tool()
  fine(
    @Param('city', { schema: z.string().min(1) }) city: string,
    @Param('days', { schema: z.number().int().optional() }) days: number | undefined,
    @Param('unit', { schema: z.enum(['c', 'f']) }) unit: string,
    @Param('tag', { schema: v.picklist(['a', 'b']) }) tag: 'a' | 'b',
  ): string {
    return city + days + unit + tag;
  }

  /** Drifts: a string schema for a number, a wider union than the type, an optional schema for a required parameter. */
  @Tool()
  drifts(
    @Param('count', { schema: z.string() }) count: number,
    @Param('status', { schema: z.enum(['open', 'shipped', 'cancelled']) }) status: 'open' | 'shipped',
    @Param('note', { schema: v.optional(v.string()) }) note: string,
  ): string {
    return String(count) + status + note;
  }
}
`;

describe('toolsmith schema --check and Standard Schema @Param', () => {
  let dir: string;
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("reports a Standard Schema whose output type the parameter's type does not admit, and nothing for ones that agree", async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-drift-standard-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'node_modules', '@toolsmith'), { recursive: true });
    symlinkSync(resolve(__dirname, '..', '..', '..', 'core'), join(dir, 'node_modules', '@toolsmith', 'core'));
    for (const library of ['zod', 'valibot']) symlinkSync(resolve(__dirname, '..', '..', '..', '..', 'node_modules', library), join(dir, 'node_modules', library));
    writeFileSync(join(dir, 'src', 'tools.ts'), SOURCE);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: true, outDir: 'out', rootDir: 'src', types: [] },
        include: ['src'],
      }),
    );
    expect((await runCli(['schema', '-q'], dir)).code).toBe(0);
    const check = await runCli(['schema', '--check', '-q'], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('3 places where a type and what the runtime is told about it disagree:');
    expect(check.stderr).toMatch(/src\/tools\.ts:\d+:\d+: StandardTools\.drifts, parameter count: its Standard Schema outputs string, but its type is number, so the tool receives values its type rules out\./);
    expect(check.stderr).toMatch(/parameter status: its Standard Schema outputs "open" \| "shipped" \| "cancelled", but its type is "open" \| "shipped"/);
    expect(check.stderr).toMatch(/parameter note: its Standard Schema outputs string \| undefined, but its type is string/);
    expect(check.stderr).toContain('Fix: make the schema output number, or type the parameter with the schema\'s output type.');
    expect(check.stderr).not.toContain('StandardTools.fine');
  }, 60_000);
});
