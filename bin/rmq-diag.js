#!/usr/bin/env node
// Thin launcher: all logic lives in dist/ (built by `npm install` via the prepare script).
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  // What yargs prints for --version, without loading the command line: a version check (scripts,
  // `rmq-diag --version` in a CI step) should cost no more than starting Node.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { main } = await import('../dist/cli/main.js');
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`rmq-diag: internal error: ${err && err.stack ? err.stack : err}\n`);
      process.exitCode = 70;
    },
  );
}
