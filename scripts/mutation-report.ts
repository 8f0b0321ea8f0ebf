// npm run mutation:report: the verdict core's mutation score, from the committed incremental
// report (reports/stryker-incremental.json, written by `npm run mutation`), per file and in all,
// with the date of that report, the files mutated (`verdictCore` in stryker.config.mjs) and the
// reviewed ignore list (the `// Stryker disable` comments in those files, each with its reason).
// This is where the score is printed; no timed test asserts it. Exit 1 when the score is under
// the target (`thresholds.break` in stryker.config.mjs), 2 when there is no report.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { target as configTarget, verdictCore } from '../stryker.config.mjs';

const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'reports/stryker-incremental.json');

interface Mutant {
  status: string;
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>;
  thresholds: { break: number | null };
  config?: { mutate?: string[] };
}

/** Counts by outcome; detected = killed + timed out. Ignored mutants are reported apart and not scored. */
interface Tally {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  errors: number;
}

function tally(mutants: readonly Mutant[]): Tally {
  const t: Tally = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') t.killed++;
    else if (m.status === 'Timeout') t.timeout++;
    else if (m.status === 'Survived') t.survived++;
    else if (m.status === 'NoCoverage') t.noCoverage++;
    else if (m.status === 'Ignored') t.ignored++;
    else t.errors++;
  }
  return t;
}

/** Stryker's mutation score: detected over detected + survived + no coverage, in percent. */
function score(t: Tally): number {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid === 0 ? 100 : (100 * (t.killed + t.timeout)) / valid;
}

function reportDate(): string {
  try {
    const dirty = execFileSync('git', ['status', '--porcelain', '--', file], { cwd: root, encoding: 'utf8' }).trim();
    const committed = execFileSync('git', ['log', '-1', '--format=%cs', '--', file], { cwd: root, encoding: 'utf8' }).trim();
    if (committed && !dirty) return `${committed} (committed)`;
  } catch {
    // not a git checkout: fall back to the file's time
  }
  return `${statSync(file).mtime.toISOString().slice(0, 10)} (not committed)`;
}

/** The `// Stryker disable` comments of the mutated files: where, which mutators, and why. */
function ignoreList(): { where: string; mutators: string; reason: string }[] {
  const out: { where: string; mutators: string; reason: string }[] = [];
  for (const f of verdictCore) {
    readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const m = /\/\/ Stryker disable(?: next-line)? (\S+?): (.*)$/.exec(text);
        if (m) out.push({ where: `${f}:${i + 2}`, mutators: m[1]!, reason: m[2]!.trim() });
      });
  }
  return out;
}

function main(): number {
  let report: Report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  } catch {
    console.error(`No mutation report at ${path.relative(root, file)}: run \`npm run mutation\` first.`);
    return 2;
  }
  const rows = Object.entries(report.files)
    .map(([name, f]) => ({ name, t: tally(f.mutants) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const all = tally(Object.values(report.files).flatMap((f) => f.mutants));
  const target = report.thresholds.break ?? configTarget;
  const pct = (n: number) => `${n.toFixed(2)}%`;
  console.log(`Mutation score of the verdict core: ${pct(score(all))} (target ${target}%), report of ${reportDate()}`);
  console.log('');
  console.log(['file'.padEnd(28), 'score'.padStart(8), 'killed', 'timeout', 'survived', 'no cov', 'ignored'].join('  '));
  for (const { name, t } of [...rows, { name: 'all files', t: all }]) {
    console.log([name.padEnd(28), pct(score(t)).padStart(8), String(t.killed).padStart(6), String(t.timeout).padStart(7), String(t.survived).padStart(8), String(t.noCoverage).padStart(6), String(t.ignored).padStart(7)].join('  '));
  }
  if (all.errors) console.log(`\n${all.errors} mutants did not compile or broke the test run (not scored).`);
  const missing = verdictCore.filter((f) => !(f in report.files));
  if (missing.length) console.log(`\nIn stryker.config.mjs but not in the report (run \`npm run mutation\`): ${missing.join(', ')}`);
  const ignored = ignoreList();
  console.log(`\nFiles mutated (verdictCore in stryker.config.mjs): ${verdictCore.length}. Ignore list: ${ignored.length} reviewed comments (${all.ignored} mutants not scored).`);
  for (const c of ignored) console.log(`  ${c.where} ${c.mutators}: ${c.reason}`);
  return score(all) >= target ? 0 : 1;
}

process.exitCode = main();
