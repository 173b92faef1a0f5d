// `rmq-diag rules`: the rule catalogue (ids, default severities, versions, settings).
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { Rule } from '../rules/types.js';
import { examples, FORMATS, formatArg } from './common.js';
import { widthOf, type CliIo, type CommandResult } from './result.js';

interface RulesArgs {
  json: boolean;
  format?: string;
}

export function rulesCommand(_result: CommandResult, io: CliIo, rules: readonly Rule[]): CommandModule<object, RulesArgs> {
  return {
    command: 'rules',
    describe: 'list the rules analyze runs, with their settings and defaults',
    builder: (y: Argv) =>
      y
        .option('format', {
          describe: 'text (a table), json, or markdown (the table of docs/analyze.md)',
          type: 'string',
          choices: FORMATS as unknown as string[],
          requiresArg: true,
        })
        .option('json', { describe: 'the catalogue as JSON (same as --format json)', type: 'boolean', default: false })
        .epilogue(
          examples([
            ['$0 rules', 'every rule, its default severity and settings'],
            ['$0 rules --json | jq -r ".rules[].id"', 'the rule ids'],
          ]),
        ) as unknown as Argv<RulesArgs>,
    handler: async (args: ArgumentsCamelCase<RulesArgs>) => {
      const format = formatArg(args.json, args.format);
      const out = io.stdout;
      // The renderers are loaded for the format asked for only.
      if (format === 'json') out.write(`${JSON.stringify((await import('../report/findings-json.js')).rulesToJson(rules), null, 2)}\n`);
      else if (format === 'markdown') out.write((await import('../report/findings-markdown.js')).renderRulesMarkdown(rules));
      else {
        const [{ renderRulesText }, { paletteFor }] = await Promise.all([import('../report/findings-text.js'), import('../report/escape.js')]);
        out.write(renderRulesText(rules, { width: widthOf(out, io.env), palette: paletteFor(out, io.env, io.color) }));
      }
    },
  };
}
