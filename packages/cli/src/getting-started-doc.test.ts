import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// docs/getting-started.md shows the files of examples/getting-started, which the real-install test
// compiles, runs and tests; this keeps the page equal to them.
const ROOT = resolve(__dirname, '..', '..', '..');

describe('docs/getting-started.md', () => {
  const page = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');
  const shown = [...page.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```\n/g)].map(([, path, text]) => ({ path, text }));

  it('shows every file of the example app', () => {
    expect(shown.map((file) => file.path).sort()).toEqual(
      ['jest.config.js', 'src/main.ts', 'src/task-store.ts', 'src/task-tools.test.ts', 'src/task-tools.ts', 'src/todo-agent.test.ts', 'src/todo-agent.ts', 'tsconfig.json'].map((f) => `examples/getting-started/${f}`),
    );
  });

  it.each(shown.map((file) => [file.path, file.text]))('shows %s as it is', (path, text) => {
    expect(text).toBe(readFileSync(join(ROOT, path), 'utf8'));
  });
});
