// Preloaded (`node --import`) by the conformance e2e test into the official conformance CLI's process.
// The CLI's bundle imports `globSync` from `fs`, which node 20 lacks; only its `tier-check` command
// (never run by the tests) calls it. The hooks hand that bundle a `fs` with a `globSync` that throws,
// so every scenario runs on the machine's node 20 unchanged, and a call to the missing function fails loudly.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
