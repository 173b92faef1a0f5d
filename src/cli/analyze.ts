// `rmq-diag analyze`: wires options to the timeline builder, the rule engine and the reports.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { UsageError } from '../util/errors.js';
import { SEVERITIES, type Rule, type Severity } from '../rules/types.js';
import type { AnalyzeArgs } from './analyze-run.js';
import { examples, FORMATS, formatArg, ruleSettings, selectRules, withInputOptions, withRuleOptions } from './common.js';
import { checkOutputs, formatOfName } from './output.js';
import { exitWith, type CliIo, type CommandResult } from './result.js';

function severityArg(value: string, flag: string): Severity {
  const v = value.toLowerCase();
  if (!(SEVERITIES as readonly string[]).includes(v)) {
    throw new UsageError(`${flag} ${value}: unknown severity (one of ${SEVERITIES.join(', ')})`);
  }
  return v as Severity;
}

export function analyzeCommand(result: CommandResult, io: CliIo, rules: readonly Rule[]): CommandModule<object, AnalyzeArgs> {
  return {
    command: 'analyze [paths..]',
    describe: 'name what happened: findings with figures, evidence and advice, and a timeline of milestones',
    builder: (y: Argv) =>
      withRuleOptions(withInputOptions(y, { rulesThread: true }))
        .option('format', {
          describe: 'report format: text (for people), json (docs/analyze.md), markdown (a postmortem draft), html (one self-contained page with the incident drawn)',
          type: 'string',
          choices: FORMATS as unknown as string[],
          requiresArg: true,
        })
        .option('json', { describe: 'the report as one JSON document (same as --format json)', type: 'boolean', default: false })
        .option('output', { alias: 'o', describe: 'write the report to FILE instead of stdout (created or replaced; never a folder, a FIFO or an input); without --format, .html, .json or .md picks the format', type: 'string', requiresArg: true })
        .option('severity', {
          describe: 'exit code 1 when a finding at or above this severity exists (critical, error, warning, info; none: never)',
          type: 'string',
          default: 'warning',
          requiresArg: true,
        })
        .option('show', {
          describe: 'show findings at or above this severity (the exit code still follows --severity)',
          type: 'string',
          default: 'info',
          requiresArg: true,
        })
        .option('pager', {
          describe: 'on a terminal, page the text report: $RMQ_DIAG_PAGER, else $PAGER, else less (LESS=FRX when unset; empty or cat: none); --no-pager prints it directly',
          type: 'boolean',
          default: true,
        })
        .option('verbose', { describe: 'also the per-file accounting table, and every note on the inputs', type: 'boolean', default: false })
        .option('clock-fix', {
          describe: "move the times of a host whose clock the logs show off (by more than 5 s, well determined) before naming the incident; --no-clock-fix only says it",
          type: 'boolean',
          default: true,
        })
        .option('tui', { describe: 'open the findings and the timeline in the terminal UI instead (same as rmq-diag tui)', type: 'boolean', default: false })
        .epilogue(
          examples([
            ['$0 analyze incident/', 'findings for every host under incident/'],
            ['$0 analyze incident/ --severity error', 'exit code 1 only for error or critical findings'],
            ['$0 analyze incident/ --no-rule disk-full --set sendMsgTimeout=5000', 'skip a rule, change a setting'],
            ['$0 analyze incident/ --format markdown > postmortem.md', 'a postmortem draft'],
            ['$0 analyze incident/ --format html -o incident.html', 'one page with the incident drawn, to open in a browser'],
            ['$0 analyze incident/ --json | jq .findings', 'JSON for scripts'],
            ['$0 analyze incident/ --no-pager', 'print the report on the terminal without a pager'],
            ['$0 analyze incident/ --tui', 'the same findings in the terminal UI'],
          ]),
        ) as unknown as Argv<AnalyzeArgs>,
    handler: async (args: ArgumentsCamelCase<AnalyzeArgs>) => {
      // Arguments first: a typo must not cost a read of a large incident.
      // Without --format or --json, `-o FILE`'s extension names the format (docs/analyze.md, "Writing to a file").
      const format = formatArg(args.json, args.format ?? (args.json ? undefined : formatOfName(args.output, FORMATS)));
      // `none`: findings never set the exit code (a demo, a report that must not fail a pipeline).
      const severity = args.severity.toLowerCase() === 'none' ? 'none' : severityArg(args.severity, '--severity');
      const show = severityArg(args.show, '--show');
      const enabled = selectRules(rules, args.rule, args['skip-rule']);
      const changed = ruleSettings(enabled, args.set);
      if (args.tui) {
        // The report options choose what is printed; the TUI shows everything.
        if (args.json || args.format !== undefined) throw new UsageError('--tui and --format/--json disagree: the TUI is the report');
        const { openTui } = await import('./open-tui.js');
        exitWith(result, await openTui(args, io, enabled, changed, true));
        return;
      }
      checkOutputs(args, [['-o', args.output, 'file']], [], io);
      // The pipeline is loaded only now: `--help` and a bad option need none of it.
      const { runAnalyze } = await import('./analyze-run.js');
      exitWith(result, await runAnalyze(args, io, { format, severity, show, enabled, changed }));
    },
  };
}
