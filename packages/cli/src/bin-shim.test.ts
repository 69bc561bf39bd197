import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI_VERSION } from './version';

// npm links a package's bins when it installs it, which in a clone of this repository is `npm ci`,
// before any build: a bin pointing into dist/ would not be linked, and `npx toolsmith` would not work.
const PACKAGE = resolve(__dirname, '..');
const ROOT = resolve(PACKAGE, '..', '..');

describe('the toolsmith bin', () => {
  const { bin } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> };

  it('is a committed file, not a build output', () => {
    expect(Object.keys(bin)).toEqual(['toolsmith']);
    expect(bin.toolsmith).not.toMatch(/^(\.\/)?dist\//);
    const tracked = execFileSync('git', ['ls-files', '--', join('packages', 'cli', bin.toolsmith)], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(tracked).toBe(`packages/cli/${bin.toolsmith}`);
  });

  it('is what node_modules/.bin/toolsmith runs, and it runs the compiled CLI', () => {
    expect(execFileSync(join(ROOT, 'node_modules', '.bin', 'toolsmith'), ['--version'], { encoding: 'utf8' }).trim()).toBe(CLI_VERSION);
  });
});
