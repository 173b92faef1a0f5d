// `rmq-diag analyze`: wires options to the timeline builder, the rule engine and the reports.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { UsageError } from '../util/errors.js';
import { paletteFor } from '../report/escape.js';
import { renderFindingsJson } from '../report/findings-json.js';
import { renderFindingsMarkdown } from '../report/findings-markdown.js';
import { activityCollector } from '../report/html/activity.js';
import { renderFindingsHtml } from '../report/html/analyze-html.js';
import { atOrAbove, renderFindingsText, type AnalyzeReport } from '../report/findings-text.js';
import { settingsInEffect } from '../rules/analyze.js';
import { diagnose } from '../replay/diagnose.js';
import { SEVERITIES, type Rule, type Severity } from '../rules/types.js';
import { buildTimeline } from '../timeline/build.js';
import { dominantZone } from '../timeline/zone-out.js';
import { buildOptionsFrom, examples, FORMATS, formatArg, type InputArgs, ruleSettings, sayInputs, selectRules, withInputOptions, withRuleOptions, zoneArg } from './common.js';
import { checkOutput, writeReport } from './output.js';
import { progressOn } from './progress.js';
import { exitWith, widthOf, type CliIo, type CommandResult } from './result.js';
import { openTui } from './open-tui.js';

interface AnalyzeArgs extends InputArgs {
  json: boolean;
  format?: string;
  severity: string;
  show: string;
  rule: string[];
  'skip-rule': string[];
  set: string[];
  verbose: boolean;
  tui: boolean;
  output?: string;
}

export function severityArg(value: string, flag: string): Severity {
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
      withRuleOptions(withInputOptions(y))
        .option('format', {
          describe: 'report format: text (for people), json (docs/analyze.md), markdown (a postmortem draft), html (one self-contained page with the incident drawn)',
          type: 'string',
          choices: FORMATS as unknown as string[],
          requiresArg: true,
        })
        .option('json', { describe: 'the report as one JSON document (same as --format json)', type: 'boolean', default: false })
        .option('output', { alias: 'o', describe: 'write the report to FILE (created or replaced; never a folder or an input) instead of stdout', type: 'string', requiresArg: true })
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
        .option('verbose', { alias: 'v', describe: 'also the per-file accounting table', type: 'boolean', default: false })
        .option('tui', { describe: 'open the findings and the timeline in the terminal UI instead (same as rmq-diag tui)', type: 'boolean', default: false })
        .epilogue(
          examples([
            ['$0 analyze incident/', 'findings for every host under incident/'],
            ['$0 analyze incident/ --severity error', 'exit code 1 only for error or critical findings'],
            ['$0 analyze incident/ --no-rule disk-full --set sendMsgTimeout=5000', 'skip a rule, change a setting'],
            ['$0 analyze incident/ --format markdown > postmortem.md', 'a postmortem draft'],
            ['$0 analyze incident/ --format html -o incident.html', 'one page with the incident drawn, to open in a browser'],
            ['$0 analyze incident/ --json | jq .findings', 'JSON for scripts'],
            ['$0 analyze incident/ --tui', 'the same findings in the terminal UI'],
          ]),
        ) as unknown as Argv<AnalyzeArgs>,
    handler: async (args: ArgumentsCamelCase<AnalyzeArgs>) => {
      // Arguments first: a typo must not cost a read of a large incident.
      const format = formatArg(args.json, args.format);
      // `none`: findings never set the exit code (a demo, a report that must not fail a pipeline).
      const severity = args.severity.toLowerCase() === 'none' ? 'none' : severityArg(args.severity, '--severity');
      const show = severityArg(args.show, '--show');
      const enabled = selectRules(rules, args.rule, args['skip-rule']);
      const changed = ruleSettings(enabled, args.set);
      if (args.tui) {
        // The report options choose what is printed; the TUI shows everything.
        if (args.json || args.format !== undefined) throw new UsageError('--tui and --format/--json disagree: the TUI is the report');
        exitWith(result, await openTui(args, io, enabled, changed, true));
        return;
      }
      checkOutput(args.output, []);
      const opts = buildOptionsFrom(args);
      const tzOut = args['tz-out'] !== undefined ? zoneArg(args['tz-out'], '--tz-out') : null;
      const progress = progressOn(io.stderr, args.progress);
      // The records replay's inference reads too: the causes come from the same inference.
      const timeline = await buildTimeline({ ...opts, keepOther: 'inference', onProgress: (d, t) => progress.update(d, t) });
      try {
        progress.clear();
        if (sayInputs(timeline, io, args.paths) === 2) return exitWith(result, 2);
        // The HTML timeline's buckets and marks come from the same pass.
        const activity = format === 'html' ? activityCollector(timeline.accounting, timeline.first, timeline.last) : null;
        const { analysis, incidents } = diagnose(timeline, { rules: enabled, settings: changed, show, observers: activity ? [activity] : [] });
        const report: AnalyzeReport = {
          timeline,
          analysis,
          incidents,
          rules: enabled.map((r) => r.meta.id),
          settings: settingsInEffect(enabled, changed),
          changed,
          severity,
          show,
          zone: tzOut ?? dominantZone(timeline.accounting, timeline.defaultZone),
          ...(activity ? { activity: activity.finish() } : {}),
        };
        const out = io.stdout;
        const text =
          format === 'json'
            ? renderFindingsJson(report)
            : format === 'markdown'
              ? renderFindingsMarkdown(report)
              : format === 'html'
                ? renderFindingsHtml(report)
                : renderFindingsText(report, {
                  width: widthOf(out, io.env),
                  palette: paletteFor(out, io.env, io.color),
                  verbose: args.verbose,
                });
        await writeReport(text, io, args.output, timeline.accounting.map((a) => a.path));
        exitWith(result, atOrAbove(analysis.findings, severity).length > 0 ? 1 : 0);
      } finally {
        timeline.close();
      }
    },
  };
}
