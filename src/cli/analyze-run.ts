// `rmq-diag analyze` once its arguments are read: the timeline, the rules and the incident, the report.
// Loaded by the command's handler only (src/cli/analyze.ts), so that `--help` and `--version` load none of it.
import type { ArgumentsCamelCase } from 'yargs';
import { paletteFor } from '../report/escape.js';
import { renderFindingsJson } from '../report/findings-json.js';
import { renderFindingsMarkdown } from '../report/findings-markdown.js';
import { activityCollector } from '../report/html/activity.js';
import { renderFindingsHtml } from '../report/html/analyze-html.js';
import { renderFindingsText } from '../report/findings-text.js';
import { atOrAbove, clockNotes, type AnalyzeReport } from '../report/summary.js';
import { clockReports } from '../timeline/clocks.js';
import { shiftTimeline } from '../timeline/shift.js';
import { settingsInEffect } from '../rules/analyze.js';
import type { Rule, Severity, SettingValue } from '../rules/types.js';
import { diagnoseOnBothCores } from '../diagnosis/diagnose.js';
import { rulesThreadOfJobs } from '../rules/rules-thread.js';
import { buildTimeline, type Timeline } from '../timeline/build.js';
import { dominantZone } from '../timeline/zone-out.js';
import { buildOptionsFrom, sayInputs, zoneArg, type Format, type InputArgs } from './common.js';
import { inputsOfRun, reportStream, writeReport } from './output.js';
import { pagerFor } from './pager.js';
import { progressOn } from './progress.js';
import { widthOf, type CliIo } from './result.js';

export interface AnalyzeArgs extends InputArgs {
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
  /** `--no-clock-fix`: say a host's clock is off, keep its times. */
  'clock-fix': boolean;
  /** false: --no-pager. */
  pager: boolean;
}

interface AnalyzeChoices {
  format: Format;
  severity: Severity | 'none';
  show: Severity;
  enabled: readonly Rule[];
  changed: Record<string, SettingValue>;
}

/** The run; returns the exit code. */
export async function runAnalyze(args: ArgumentsCamelCase<AnalyzeArgs>, io: CliIo, c: AnalyzeChoices): Promise<number> {
  const { format, severity, show, enabled, changed } = c;
  const opts = buildOptionsFrom(args);
  const tzOut = args['tz-out'] !== undefined ? zoneArg(args['tz-out'], '--tz-out') : null;
  const progress = progressOn(io.stderr, args.progress);
  // The records the inference reads too (src/diagnosis): the causes come from the same inference as replay's.
  const timeline = await buildTimeline({ ...opts, keepOther: 'inference', onProgress: (d, t) => progress.update(d, t) });
  try {
    progress.clear();
    if (sayInputs(timeline, io, args.paths, args.verbose) === 2) return 2;
    // The HTML timeline's buckets and marks come from the same pass.
    const pass = (t: Timeline, clocks: boolean) => {
      const activity = format === 'html' ? activityCollector(t.accounting, t.first, t.last) : null;
      const run = diagnoseOnBothCores(t, { rules: enabled, settings: changed, show, observers: activity ? [activity] : [], rulesThread: rulesThreadOfJobs(args.jobs), clocks });
      return run.then((d) => ({ ...d, activity }));
    };
    let view = timeline;
    let d = await pass(view, true);
    // A clock off and well determined: the incident is named again over corrected times (docs/analyze.md, "Clocks").
    const { clocks, moved } = clockReports(d.clocks ?? [], timeline.accounting, timeline.first ?? 0, args['clock-fix'], timeline.shiftMs);
    if (moved.some((ms) => ms !== 0)) {
      view = shiftTimeline(timeline, moved);
      d = await pass(view, false);
    }
    const { analysis, incidents, consumers, activity } = d;
    const report: AnalyzeReport = {
      clocks,
      timeline: view,
      analysis,
      incidents,
      consumers,
      rules: enabled.map((r) => r.meta.id),
      settings: settingsInEffect(enabled, changed),
      changed,
      severity,
      show,
      zone: tzOut ?? dominantZone(timeline.accounting, timeline.defaultZone),
      ...(activity ? { activity: activity.finish() } : {}),
    };
    for (const note of clockNotes(report)) io.stderr.write(`note: ${note}\n`);
    // Colour and width for where the report goes: a file of -o is no terminal.
    const out = reportStream(io, args.output);
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
    // The pager draws on this process's terminal: only when stdout is that terminal (not a test's stream).
    const pager = pagerFor({ isTTY: io.stdout === process.stdout && io.stdout.isTTY === true, noPager: !args.pager, format, output: args.output, env: io.env });
    await writeReport(text, io, args.output, inputsOfRun(args, timeline.files), pager);
    return atOrAbove(analysis.findings, severity).length > 0 ? 1 : 0;
  } finally {
    timeline.close();
  }
}
