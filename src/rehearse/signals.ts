import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { diffLines } from 'diff';
import picomatch from 'picomatch';
import type { FailureMode } from '../packets/schema/failures.ts';

/** Everything a signal can grep in one workspace. */
export interface Evidence {
  /** Files the candidate (or the model, or the mutant) could write: the workspace minus protected files. */
  candidateFiles: readonly string[];
  /** The text of each candidate file, read while the workspace existed. */
  snapshot: ReadonlyMap<string, string>;
  /** The starter tree, to diff against. */
  starterDir: string;
  /** Files of the starter. */
  starterFiles: readonly string[];
  /** The test run's combined output. */
  output: string;
}

/** Where a signal matched. */
export interface SignalHit {
  /** The file (or `output`), where the match is. */
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

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}

/** The texts a signal greps, by place, for its `in` and `files` settings. */
export async function signalTexts(mode: Pick<FailureMode, 'signal'>, evidence: Evidence): Promise<[string, string][]> {
  const { signal } = mode;
  if (signal.in === 'output') return [['output', evidence.output]];
  const inScope = signal.files?.length ? picomatch(signal.files, { dot: true }) : () => true;
  if (signal.in === 'ledger') {
    const files = evidence.candidateFiles.filter((f) => LEDGER_FILES.test(f));
    return files.map((f) => [f, evidence.snapshot.get(f) ?? ''] as [string, string]);
  }
  const files = evidence.candidateFiles.filter((f) => inScope(f));
  const texts: [string, string][] = [];
  for (const f of files) {
    const now = evidence.snapshot.get(f) ?? '';
    if (signal.in === 'files') {
      texts.push([f, now]);
      continue;
    }
    const before = evidence.starterFiles.includes(f) ? await readText(path.join(evidence.starterDir, f)) : '';
    if (before === now) continue;
    const added = diffLines(before, now)
      .filter((part) => part.added)
      .map((part) => part.value)
      .join('');
    if (added) texts.push([f, added]);
  }
  return texts;
}

/** Grep a signal over a workspace's evidence: the first hit, or null. */
export async function findSignal(mode: Pick<FailureMode, 'signal'>, evidence: Evidence): Promise<SignalHit | null | string> {
  const re = compileSignal(mode);
  if (typeof re === 'string') return re;
  for (const [where, text] of await signalTexts(mode, evidence)) {
    const m = re.exec(text);
    if (m) {
      const start = text.lastIndexOf('\n', m.index) + 1;
      const end = text.indexOf('\n', m.index);
      return { where, line: text.slice(start, end < 0 ? undefined : end).trim().slice(0, 160) };
    }
  }
  return null;
}
