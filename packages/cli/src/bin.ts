#!/usr/bin/env node
import { main } from './main';

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Only unexpected failures get here (a bug, not bad input): show the stack.
    console.error(error);
    process.exitCode = 70;
  },
);
