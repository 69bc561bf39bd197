import { scanTools } from '@toolsmith/core';
import { manifestParametersSchema } from '@toolsmith/core/internal';
import type { ManifestDocument } from '@toolsmith/core/internal';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgreementTools } from '../__fixtures__/project/src/agreement-tools';
import { main } from '../main';

// The forms runtime reflection can see (string, number, boolean, an enum of literals, optional
// parameters, defaults, descriptions, the ToolContext left out) must come out the same from the
// TypeScript types and JSDoc.
describe('manifest and runtime reflection', () => {
  let document: ManifestDocument;

  beforeAll(async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'toolsmith-agree-')), 'toolsmith.schema.json');
    const sink = { write: () => undefined };
    const code = await main(['schema', '-q', '--project', resolve(__dirname, '..', '__fixtures__', 'project', 'tsconfig.json'), '--out', out], {
      stdout: sink,
      stderr: sink,
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    document = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
  });

  it.each(['lookup', 'rename'])('agree on the parameters schema of %s', (methodName) => {
    const reflected = scanTools(AgreementTools).find((tool) => tool.methodName === methodName)!;
    const method = document.toolsets.AgreementTools.methods[methodName];
    expect(manifestParametersSchema(method)).toEqual(reflected.parameters);
  });

  it('agree on names, order and where the context goes', () => {
    const { lookup, rename } = document.toolsets.AgreementTools.methods;
    expect(lookup.parameters.map((p) => [p.name, p.index, p.optional])).toEqual([
      ['city', 0, false],
      ['limit', 1, false],
      ['exact', 3, true],
      ['unit', 4, true],
    ]);
    expect(lookup.contextIndex).toBe(2);
    // `@Param('to') newName`: the argument is named by the decorator, as at runtime.
    expect(rename.parameters.map((p) => p.name)).toEqual(['from', 'to']);
    expect(rename.outputSchema).toBeUndefined();
    expect(lookup.description).toBe('Looks a city up.');
  });
});
