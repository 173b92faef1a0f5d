// `rmq-diag tui`: the TUI's options; opening it (shared with `analyze --tui`) is in open-tui.ts.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { Rule } from '../rules/types.js';
import { examples, type InputArgs, ruleSettings, selectRules, withInputOptions, withRuleOptions } from './common.js';
import type { TuiDeps } from './open-tui.js';
import { exitWith, type CliIo, type CommandResult } from './result.js';

interface TuiArgs extends InputArgs {
  rule: string[];
  'skip-rule': string[];
  set: string[];
  other: boolean;
}

export function tuiCommand(result: CommandResult, io: CliIo, rules: readonly Rule[], deps: TuiDeps = {}): CommandModule<object, TuiArgs> {
  return {
    command: 'tui [paths..]',
    describe: 'the merged timeline and the findings in a full-screen terminal UI (docs/tui.md)',
    builder: (y: Argv) =>
      withRuleOptions(withInputOptions(y, { rulesThread: true }))
        .option('other', {
          describe: "also list records that are no RocketMQ event (type 'other', dimmed); --no-other leaves them out",
          type: 'boolean',
          default: true,
        })
        .epilogue(
          examples([
            ['$0 tui incident/', 'every host under incident/: findings, time strip, events'],
            ['$0 tui incident/ --no-other', 'only RocketMQ events (less memory on very large inputs)'],
            ['zcat broker.log.gz | $0 tui - --set-kind -=broker', 'logs on stdin, keys from the terminal'],
          ]),
        )
        .epilogue('\nKeys: ? in the TUI lists them all. Needs a terminal; exit code 2 without one (use analyze or events).') as unknown as Argv<TuiArgs>,
    handler: async (args: ArgumentsCamelCase<TuiArgs>) => {
      const enabled = selectRules(rules, args.rule, args['skip-rule']);
      const settings = ruleSettings(enabled, args.set);
      const { openTui } = await import('./open-tui.js');
      exitWith(result, await openTui(args, io, enabled, settings, args.other, deps));
    },
  };
}
