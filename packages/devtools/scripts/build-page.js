// Writes the dev UI's bundle (preact included, minified) to dist/page/, where the server looks first:
// a published package serves it without esbuild. Run after `tsc -b` (it uses the compiled bundler).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { bundlePage } = require('../dist/page-bundle');

bundlePage().then(
  ({ js, css }) => {
    const out = join(__dirname, '..', 'dist', 'page');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'app.js'), js);
    writeFileSync(join(out, 'app.css'), css);
    console.log(`dev UI bundled: dist/page/app.js (${js.length} bytes), app.css (${css.length} bytes)`);
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
