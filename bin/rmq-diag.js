#!/usr/bin/env node
// Thin launcher: all logic lives in dist/ (built by `npm install` via the prepare script).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`rmq-diag: internal error: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 70;
  },
);
