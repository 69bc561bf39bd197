import * as ts from 'typescript';

/**
 * Compiles TypeScript source with standard (TC39) decorators, as `tsc` does without
 * `experimentalDecorators` (jest's own transform uses legacy decorators), and runs it as a CommonJS
 * module whose `require` resolves as this file's (so `@toolsmith/core` is the instance the test sees).
 */
export function loadStandardDecorated<T extends Record<string, unknown>>(source: string): T {
  const { outputText } = ts.transpileModule(source, {
    fileName: 'standard-decorated.ts',
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: false, emitDecoratorMetadata: false },
  });
  if (/__decorate\(|__metadata\(/.test(outputText)) throw new Error('compiled with legacy decorators');
  const module = { exports: {} as T };
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports;
}
