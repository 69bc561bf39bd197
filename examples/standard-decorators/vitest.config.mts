import { transform } from 'esbuild';
import { defineConfig } from 'vitest/config';

// Vite 8 (vitest 4 and later) transforms TypeScript with Oxc, which leaves standard decorators in the
// code (Node.js cannot run them yet). This plugin lowers them with esbuild first, as Vite 7 did.
export default defineConfig({
  test: { include: ['src/**/*.spec.ts'] },
  plugins: [
    {
      name: 'standard-decorators',
      enforce: 'pre',
      async transform(code, id) {
        if (!/\.[cm]?ts$/.test(id) || id.includes('/node_modules/') || !code.includes('@')) return null;
        const lowered = await transform(code, { loader: 'ts', target: 'es2022', sourcemap: true, sourcefile: id });
        return { code: lowered.code, map: lowered.map };
      },
    },
  ],
});
