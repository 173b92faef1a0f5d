// `rmq-diag rules`: the rule catalogue (ids, default severities, versions, settings).
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { paletteFor } from '../report/escape.js';
import { rulesToJson } from '../report/findings-json.js';
import { renderRulesMarkdown } from '../report/findings-markdown.js';
import { renderRulesText } from '../report/findings-text.js';
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
    handler: (args: ArgumentsCamelCase<RulesArgs>) => {
      const format = formatArg(args.json, args.format);
      const out = io.stdout;
      if (format === 'json') out.write(`${JSON.stringify(rulesToJson(rules), null, 2)}\n`);
      else if (format === 'markdown') out.write(renderRulesMarkdown(rules));
      else out.write(renderRulesText(rules, { width: widthOf(out, io.env), palette: paletteFor(out, io.env, io.color) }));
    },
  };
}
