/**
 * The runtime values this package uses from `@google/genai`, loaded with `require`.
 *
 * Why not `import`: the SDK is an ES module package that also ships a CommonJS build (its "require"
 * export condition), which is what Node loads for this CommonJS package. Its type declarations,
 * however, exist only as ES module declarations, and TypeScript (module `node16`) refuses a value
 * import of those from CommonJS code. Types are therefore imported with `resolution-mode: "import"`
 * (allowed for type-only imports), and the values come from `require`, typed with the same declarations.
 */
type GoogleGenAIModule = typeof import('@google/genai', { with: { 'resolution-mode': 'import' } });

const sdk = require('@google/genai') as GoogleGenAIModule;

export const { ApiError, FunctionCallingConfigMode, GoogleGenAI } = sdk;
