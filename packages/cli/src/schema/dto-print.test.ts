import type { ManifestDocument } from '@toolsmith/core/internal';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import type { CliIo } from '../cli-io';
import { main } from '../main';

const FIXTURE = resolve(__dirname, '..', '__fixtures__', 'dto-project');

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (c) => void (stdout += c), isTTY: false }, stderr: { write: (c) => void (stderr += c), isTTY: false }, cwd: FIXTURE };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Compiles the fixture as `tsc -p` would, into its (ignored) `.toolsmith-tmp/out`. */
function build(): void {
  const config = ts.getParsedCommandLineOfConfigFile(join(FIXTURE, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const emitted = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmitOnError: false } }).emit();
  if (emitted.emitSkipped) throw new Error('the fixture did not compile');
}

describe('toolsmith schema on a class-validator DTO tool', () => {
  beforeAll(() => rmSync(join(FIXTURE, '.toolsmith-tmp'), { recursive: true, force: true }));
  afterAll(() => rmSync(join(FIXTURE, '.toolsmith-tmp'), { recursive: true, force: true }));

  it('stores no schema for the DTO parameter in the manifest (its rules decide at startup)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'toolsmith-dto-')), 'toolsmith.schema.json');
    expect((await run(['schema', '--quiet', '--out', out])).code).toBe(0);
    const document = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
    expect(document.toolsets.TaskTools.methods.createTask).toMatchObject({ description: 'Creates a task.', parameters: [] });
    expect(document.toolsets.TaskTools.methods.countTasks.parameters.map((p) => p.name)).toEqual(['status']);
  });

  it('--print says to build first when the compiled class is not there', async () => {
    const result = await run(['schema', '--print', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\(arguments: the properties of CreateTaskDto; not shown: build the project first/);
    expect(result.stdout).not.toMatch(/args/);
  });

  it('--print shows what the model gets: the DTO properties with constraints and descriptions, no args wrapper', async () => {
    build();
    const result = await run(['schema', '--print', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  createTask — Creates a task.\n    (arguments: the properties of CreateTaskDto, no others)\n');
    expect(result.stdout).toContain('    title: string (minLength 1, maxLength 80) — What to do, in a few words\n');
    expect(result.stdout).toContain('    priority: "low" | "medium" | "high"\n');
    expect(result.stdout).toContain('    dueDate?: string | null — When it is due (ISO 8601)\n');
    expect(result.stdout).toContain('    status?: "done" | "open" = "open"\n');
    expect(result.stdout).not.toMatch(/args/);
  });
});
