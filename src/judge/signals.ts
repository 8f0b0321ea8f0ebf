/**
 * Failure signals: each mode's regular expression, grepped where the failure catalog says
 * (`in: files` the candidate's files, `in: diff` the lines added against the starter, `in:
 * output` the test run's output, `in: ledger` the receipts), over the files as they were
 * before the run. Pure.
 */
import { diffLines } from 'diff';
import picomatch from 'picomatch';
import type { FailureMode } from '../packets/schema/failures.ts';
import type { Snapshot } from './snapshot.ts';

/** Everything a signal can grep in one workspace. */
export interface SignalEvidence {
  /** The candidate's files before the run (protected files excluded). */
  before: Snapshot;
  /** The starter's candidate-visible files, to diff against. */
  starter: ReadonlyMap<string, string>;
  /** The test run's combined output. */
  output: string;
}

/** Where a signal matched. */
export interface SignalHit {
  /** The file (or `output`) where the match is. */
  where: string;
  /** The matching line, trimmed, at most 160 characters. */
  line: string;
}

/** Compile a mode's signal, or return the reason it does not compile. */
export function compileSignal(mode: Pick<FailureMode, 'signal'>): RegExp | string {
  try {
    return new RegExp(mode.signal.pattern, mode.signal.flags.replace(/[gy]/g, ''));
  } catch (err) {
    return (err as Error).message;
  }
}

const LEDGER_FILES = /(^|\/)(usage\.jsonl|ledger\.json|give_up\.json)$/;

/** Where a signal searches, in words (for messages that say where it looked). */
export function describeSearch(mode: Pick<FailureMode, 'signal'>): string {
  const { signal } = mode;
  const scope = signal.files?.length ? ` matching ${signal.files.join(', ')}` : '';
  switch (signal.in) {
    case 'output':
      return 'the test output';
    case 'ledger':
      return 'the receipts (usage.jsonl, ledger.json, give_up.json)';
    case 'diff':
      return `the lines added against the starter in the candidate's files${scope}`;
    default:
      return `the whole text of the candidate's files${scope}`;
  }
}

/** The texts a signal greps, by place, for its `in` and `files` settings. */
export function signalTexts(mode: Pick<FailureMode, 'signal'>, evidence: SignalEvidence): [string, string][] {
  const { signal } = mode;
  if (signal.in === 'output') return [['output', evidence.output]];
  const inScope = signal.files?.length ? picomatch(signal.files, { dot: true }) : () => true;
  const texts: [string, string][] = [];
  for (const [file, entry] of [...evidence.before].sort(([a], [b]) => a.localeCompare(b))) {
    if (typeof entry !== 'string') continue;
    if (signal.in === 'ledger') {
      if (LEDGER_FILES.test(file)) texts.push([file, entry]);
      continue;
    }
    if (!inScope(file)) continue;
    if (signal.in === 'files') {
      texts.push([file, entry]);
      continue;
    }
    const before = evidence.starter.get(file);
    // A file the starter does not have is added whole.
    const added =
      before === undefined
        ? entry
        : diffLines(before, entry)
            .filter((part) => part.added)
            .map((part) => part.value)
            .join('');
    if (added) texts.push([file, added]);
  }
  return texts;
}

/** Grep a signal over a workspace's evidence: the first hit, null, or why the signal does not compile. */
export function findSignal(mode: Pick<FailureMode, 'signal'>, evidence: SignalEvidence): SignalHit | null | string {
  const re = compileSignal(mode);
  if (typeof re === 'string') return re;
  for (const [where, text] of signalTexts(mode, evidence)) {
    const m = re.exec(text);
    if (m) {
      const start = text.lastIndexOf('\n', m.index) + 1;
      const end = text.indexOf('\n', m.index);
      // Stryker disable next-line EqualityOperator: message text; end = 0 only for a match that starts with the text's first character, a newline, whose quoted line is empty.
      return { where, line: text.slice(start, end < 0 ? undefined : end).trim().slice(0, 160) };
    }
  }
  return null;
}
