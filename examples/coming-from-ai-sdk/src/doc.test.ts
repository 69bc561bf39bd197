import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// docs/coming-from-ai-sdk.md shows the Toolsmith side as the files of this example, which
// shop-agent.test.ts runs: this keeps the page equal to them.
const ROOT = resolve(__dirname, '..', '..', '..');

describe('docs/coming-from-ai-sdk.md', () => {
  const page = readFileSync(join(ROOT, 'docs', 'coming-from-ai-sdk.md'), 'utf8');
  const shown = [...page.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```\n/g)].map(([, path, text]) => ({ path, text }));

  it('shows every file of the example', () => {
    expect(shown.map((file) => file.path).sort()).toEqual(['shop-agent.test.ts', 'shop-agent.ts', 'shop-tools.ts'].map((file) => `examples/coming-from-ai-sdk/src/${file}`));
  });

  it.each(shown.map((file) => [file.path, file.text]))('shows %s as it is', (path, text) => {
    expect(text).toBe(readFileSync(join(ROOT, path), 'utf8'));
  });
});
