// node's `fs`, plus `globSync` (added in node 22; see register.mjs): node's own where it has one, else
// a function that fails if called, present so that the CLI's bundle links.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export const globSync =
  fs.globSync ??
  (() => {
    throw new Error("fs.globSync needs node 22 or later (only the conformance CLI's tier-check command uses it)");
  });
