// The rmq-diag command line: yargs wiring only. Exit codes: 0 clean, 1 findings at or above the
// chosen severity, 2 usage or input error.

import { createRequire } from 'node:module';
import yargs from 'yargs';
import { UsageError } from '../ingest/sources.js';
import { TimeArgError } from '../timeline/time-args.js';
import { eventsCommand } from './events.js';
import { STDIN_ARG, processIo, type CliIo, type CommandResult } from './result.js';

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const result: CommandResult = { code: 0 };
  let usageFailure: string | null = null;
  // yargs drops a lone `-`; carry it through as a sentinel (see STDIN_ARG).
  const cli = yargs(argv.map((a) => (a === '-' ? STDIN_ARG : a)))
    .scriptName('rmq-diag')
    .usage('$0 <command> [options]\n\nReads RocketMQ client, broker and NameServer logs, merges them into one timeline, and names what happened.')
    .command(eventsCommand(result, io))
    .demandCommand(1, 'name a command: events')
    .strict()
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(pkg.version)
    .wrap(Math.min(100, io.stdout.columns || 100))
    .epilogue('Exit codes: 0 clean, 1 findings at or above --severity, 2 usage or input error.\nDocs: README.md, docs/json.md, docs/events.md')
    .exitProcess(false)
    .fail((msg, err) => {
      if (err) throw err;
      usageFailure = msg;
    });
  try {
    await cli.parseAsync();
  } catch (err) {
    if (err instanceof UsageError || err instanceof TimeArgError) {
      io.stderr.write(`rmq-diag: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (usageFailure !== null) {
    io.stderr.write(`rmq-diag: ${usageFailure}\nRun 'rmq-diag --help' for usage.\n`);
    return 2;
  }
  return result.code;
}
