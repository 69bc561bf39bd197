// The durable-run workers' preload (`node -r`, also `npm run durable-chaos`): @toolsmith/postgres's test
// fixture, which runs the TypeScript sources with esbuild (one copy for both packages' child processes).
require('../../../postgres/src/__fixtures__/register-esbuild.js');
