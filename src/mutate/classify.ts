/**
 * What became of a mutant, from the judge's evidence. Pure.
 *
 * - killed: the tests are red for test reasons (visible or held-out tests failed on a run that
 *   can be trusted); the failing tests are named.
 * - survived: every expected test ran and passed: a blind spot of the tests.
 * - crashed: the run never got to judge behaviour: a module that does not import, a crash before
 *   the runner's summary (PK413), a hang (PK411), a flood (PK412), tests missing or skipped.
 * - invalid: decided before the sandbox (see `run-mutate.ts`: not a usable item, a path outside
 *   the sample's sources, a signature the tests depend on changed, no change but cosmetics), or
 *   after it when the run forged its results (canaries, exit code, summaries): a mutant that
 *   tampers with the evidence is not a change of behaviour the tests can be asked to catch, and
 *   calling it killed or survived would both be claims the evidence cannot support.
 * - unjudged: the sandbox could not run it (PK410); never counted, and the run is INCONCLUSIVE.
 */
import type { Judgement } from '../judge/judge.ts';

/** Every outcome a proposed mutant can have. `duplicate` repeats an earlier one and is counted once. */
export type MutantStatus = 'killed' | 'survived' | 'crashed' | 'invalid' | 'duplicate' | 'unjudged';

/** A judged mutant's outcome. */
export interface JudgedOutcome {
  status: Extract<MutantStatus, 'killed' | 'survived' | 'crashed' | 'invalid' | 'unjudged'>;
  /** The outcome in words. */
  reason: string;
  /** The tests that failed on it (killed), in the judge's id form. */
  killedBy?: string[];
  /** Killed by held-out tests alone: the visible tests would have shown green. */
  onlyHidden?: boolean;
  /** Findings that did not decide the outcome but are worth knowing (a failure signal that matches, the workspace contract). */
  notes?: string[];
}

const IMPORT_FAILURE = /^unittest\.loader\.(?:_FailedTest|ModuleImportFailure)\./;

/** The outcome of a judged mutant. */
export function classifyJudgement(j: Judgement): JudgedOutcome {
  const say = (list: readonly { code: string; message: string }[]) => list.map((f) => `${f.code} ${f.message}`).join('; ');
  const infra = j.findings.filter((f) => f.kind === 'infra');
  if (infra.length) return { status: 'unjudged', reason: `the sandbox could not run it: ${say(infra)}` };
  const tamper = j.findings.filter((f) => f.kind === 'tamper');
  if (tamper.length) return { status: 'invalid', reason: `it forges the test results, so neither killed nor survived can be said: ${say(tamper)}` };
  const notes = j.findings
    .filter((f) => f.kind === 'signal' || f.kind === 'contract' || f.kind === 'unsafe')
    .map((f) => `${f.code} ${f.message}`);
  const withNotes = notes.length ? { notes } : {};
  const imports = j.tests.failing.filter((id) => IMPORT_FAILURE.test(id));
  const run = j.findings.filter((f) => f.kind === 'run');
  if (run.length) return { status: 'crashed', reason: say(run), ...withNotes };
  if (imports.length) {
    const modules = imports.map((id) => id.replace(IMPORT_FAILURE, ''));
    return { status: 'crashed', reason: `a test module does not import with it: ${modules.join(', ')} (${j.description})`, ...withNotes };
  }
  if (j.testsGreen) return { status: 'survived', reason: `every test passes with it (${j.description})`, ...withNotes };
  const killedBy = [...j.failing.visible, ...j.failing.hidden];
  const onlyHidden = j.visibleGreen;
  return {
    status: 'killed',
    reason: `${killedBy.length} test${killedBy.length === 1 ? '' : 's'} fail${killedBy.length === 1 ? 's' : ''} (${j.description})${onlyHidden ? '; only held-out tests caught it' : ''}`,
    killedBy,
    ...(onlyHidden ? { onlyHidden } : {}),
    ...withNotes,
  };
}

/**
 * Code as duplicates are compared: line endings unified, trailing blanks and blank lines
 * dropped, and whole-line comments dropped (`#` for Python, `//` for JavaScript and TypeScript).
 * Two mutants with the same normalised code are one mutant; a mutant whose normalised code is
 * the sample's changes nothing but cosmetics.
 */
export function normalizedCode(text: string, language: string): string {
  const comment = language.toLowerCase() === 'python' ? /^\s*#/ : /^\s*\/\//;
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l !== '' && !comment.test(l))
    .join('\n');
}
