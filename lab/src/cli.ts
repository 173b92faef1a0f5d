// The lab's command line: `npm run lab -- record SCENARIO`, `list`, `clean`.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolchain, toolchainProblem } from './maven.js';
import { networkProblem } from './net.js';
import { cleanLeftovers, record } from './record.js';
import { loadScenario, ScenarioError } from './scenario.js';
import { SCORE_USAGE, scoreCommand } from './score-run.js';

const labDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(labDir, '..');

const USAGE = `usage: npm run lab -- <command>

  record SCENARIO [--out DIR] [--force] [--keep-scratch]
                 run the scenario on real RocketMQ processes and write its logs and lab.json
                 to samples/lab/SCENARIO (or DIR); refuses to replace a recording without --force
  list           the scenarios in lab/scenarios
  clean          remove the network namespaces and bridge a killed run left behind
${SCORE_USAGE}

examples:
  npm run lab -- record crash
  npm run lab -- record seed-outage --force
  npm run lab -- score samples/lab --verbose`;

function log(line: string): void {
  process.stderr.write(`lab: ${line}\n`);
}

function scenarioNames(): string[] {
  return readdirSync(join(labDir, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (cmd === 'list') {
    for (const name of scenarioNames()) {
      const s = loadScenario(join(labDir, 'scenarios', `${name}.json`));
      process.stdout.write(`${name.padEnd(16)} ${s.description.split(/\.(?:\s|$)/)[0]}\n`);
    }
    return 0;
  }
  if (cmd === 'clean') {
    const removed = cleanLeftovers();
    log(removed.length ? `removed ${removed.join(', ')}` : 'nothing to remove');
    return 0;
  }
  // score: rmq-diag's statements on recordings, checked against their lab.json.
  if (cmd === 'score') return scoreCommand(repoDir, rest, log);
  if (cmd !== 'record') {
    log(`unknown command ${cmd}\n${USAGE}`);
    return 2;
  }
  let name: string | undefined;
  let out: string | undefined;
  let force = false;
  let keepScratch = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--force') force = true;
    else if (a === '--keep-scratch') keepScratch = true;
    else if (a === '--out') out = rest[++i];
    else if (a.startsWith('-')) {
      log(`unknown option ${a}`);
      return 2;
    } else if (!name) name = a;
    else {
      log(`one scenario at a time (got ${name} and ${a})`);
      return 2;
    }
  }
  if (!name) {
    log(`record needs a scenario: ${scenarioNames().join(', ')}`);
    return 2;
  }
  const file = existsSync(name) && name.endsWith('.json') ? name : join(labDir, 'scenarios', `${name}.json`);
  if (!existsSync(file)) {
    log(`no scenario ${name}; the scenarios are ${scenarioNames().join(', ')}`);
    return 2;
  }
  const scenario = loadScenario(file);
  const tool = toolchain(labDir, log);
  const problem = networkProblem() ?? toolchainProblem(tool);
  if (problem) {
    log(problem);
    return 2;
  }
  const dest = resolve(out ?? join(repoDir, 'samples', 'lab', scenario.scenario));
  const where = await record(scenario, tool, { out: dest, force, keepScratch }, log);
  process.stdout.write(`${where}\n`);
  log(`recorded ${scenario.scenario}: the logs of every host and lab.json are in ${where}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    log(e instanceof ScenarioError ? `scenario ${e.message}` : (e as Error).message);
    process.exit(e instanceof ScenarioError ? 2 : 1);
  },
);
