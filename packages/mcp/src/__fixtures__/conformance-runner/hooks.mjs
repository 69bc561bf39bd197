// Module resolution hooks (see register.mjs): `fs` as imported by the conformance CLI's bundle resolves to fs-with-glob-sync.mjs.
const fsWithGlobSync = new URL('./fs-with-glob-sync.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromConformance = context.parentURL?.includes('/@modelcontextprotocol/conformance/dist/') === true;
  if (fromConformance && (specifier === 'fs' || specifier === 'node:fs')) return { url: fsWithGlobSync, shortCircuit: true };
  return nextResolve(specifier, context);
}
