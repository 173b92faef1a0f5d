// The lab's command line: `npm run lab -- record SCENARIO`, `list`, `clean`.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGenerated } from './generate.js';
import { toolchain, toolchainProblem } from './maven.js';
import { networkProblem } from './net.js';
import { cleanLeftovers, record } from './record.js';
import { loadScenario, ScenarioError } from './scenario.js';
import { SCORE_USAGE, scoreCommand } from './score-run.js';

const labDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(labDir, '..');

const USAGE = `usage: npm run lab -- <command>

  record SCENARIO [--out DIR] [--force] [--keep-scratch] [--gzip]
                 run the scenario on real RocketMQ processes and write its logs and lab.json
                 to samples/lab/SCENARIO (or DIR); refuses to replace a recording without --force;
                 --gzip writes every log gzipped (name.log.gz)
  generate --seed N [--count K] [--out DIR]
                 write K scenarios (seeds N..N+K-1) drawn from the lab's space (lab/src/space.ts)
                 to lab/scenarios/generated/gen-SEED.json (or DIR); record runs each by its path
  list           the scenarios in lab/scenarios
  clean          remove the network namespaces and bridge a killed run left behind
${SCORE_USAGE}

examples:
  npm run lab -- record crash
  npm run lab -- record seed-outage --force
  npm run lab -- generate --seed 7 --count 3
  npm run lab -- record lab/scenarios/generated/gen-7.json --out /tmp/gen-7
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

// `generate --seed N [--count K] [--out DIR]`: the scenarios of seeds N..N+K-1 (generate.ts).
function generateCommand(args: string[]): number {
  let seed: number | undefined;
  let count = 1;
  let out = join(labDir, 'scenarios', 'generated');
  for (let i = 0; i < args.length; i++) {
    const [a, v] = [args[i], args[i + 1]];
    if (a === '--out' && v) (out = resolve(v)), i++;
    else if ((a === '--seed' || a === '--count') && v && /^\d{1,9}$/.test(v)) {
      if (a === '--seed') seed = Number(v);
      else count = Number(v);
      i++;
    } else {
      const why = a === '--out' ? 'needs a folder' : a === '--seed' || a === '--count' ? 'needs a whole number' : 'is not an option of generate';
      log(`generate: ${a} ${why}\n${USAGE}`);
      return 2;
    }
  }
  if (seed === undefined || count < 1 || count > 1000) {
    log(`generate needs --seed N (and --count 1 to 1000)\n${USAGE}`);
    return 2;
  }
  for (const file of writeGenerated(seed, count, out)) process.stdout.write(`${relative(process.cwd(), file)}\n`);
  return 0;
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
  if (cmd === 'generate') return generateCommand(rest);
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
  let gzip = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--force') force = true;
    else if (a === '--keep-scratch') keepScratch = true;
    else if (a === '--gzip') gzip = true;
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
  const where = await record(scenario, tool, { out: dest, force, keepScratch, gzip }, log);
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
