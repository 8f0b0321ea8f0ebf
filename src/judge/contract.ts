/**
 * The workspace contract (the prompt's `workspace`), judged over the files as they were before
 * the run: only `allow` paths added, changed or deleted; no `forbid` pattern in a changed
 * file (named by file and line); no file that hooks the interpreter or the test runner. Pure.
 */
import picomatch from 'picomatch';
import { JudgeFindings } from '../errors/judge-catalog.ts';
import { finding, type Finding } from './findings.ts';
import type { Snapshot } from './snapshot.ts';

/** The prompt's contract. */
export interface ContractRules {
  /** Globs of paths the candidate may add, change or delete. */
  allow: readonly string[];
  /** Patterns that must not appear in a changed file. */
  forbid: readonly { pattern: string; reason: string }[];
}

/** What a submission changed against the starter. */
export interface Changes {
  /** Paths added or changed, with their text (or why they could not be read). */
  changed: string[];
  /** Starter paths the submission removed. */
  deleted: string[];
}

/**
 * Files the interpreter or the runner load by themselves: they can patch the runner or the code
 * under test before any test runs, whatever the contract allows.
 */
const RUNNER_HOOK = /(^|\/)(conftest\.py|sitecustomize\.py|usercustomize\.py|pytest\.ini|\.pytest\.ini|[^/]*\.pth)$/;

/** True for a path that hooks the interpreter or the test runner. */
export function isRunnerHook(file: string): boolean {
  return RUNNER_HOOK.test(file);
}

/** Compare the candidate's files with the starter's. */
export function changesOf(starter: ReadonlyMap<string, string>, before: Snapshot): Changes {
  const changed: string[] = [];
  // A file the kit would not read (an object) never equals the starter's text, so it counts as changed.
  for (const [file, entry] of before) if (starter.get(file) !== entry) changed.push(file);
  const deleted = [...starter.keys()].filter((f) => !before.has(f));
  return { changed: changed.sort(), deleted: deleted.sort() };
}

/** Compile the forbid patterns; a pattern that does not compile is a finding, so the contract fails closed. */
export function compileForbid(rules: ContractRules): { compiled: { re: RegExp; pattern: string; reason: string }[]; findings: Finding[] } {
  const compiled: { re: RegExp; pattern: string; reason: string }[] = [];
  const findings: Finding[] = [];
  for (const rule of rules.forbid) {
    try {
      compiled.push({ re: new RegExp(rule.pattern), pattern: rule.pattern, reason: rule.reason });
    } catch (err) {
      findings.push(finding('contract', JudgeFindings.ContractPatternInvalid, { pattern: rule.pattern, reason: (err as Error).message }));
    }
  }
  return { compiled, findings };
}

/** 1-based line of a character offset. */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Every way the changes break the contract. */
export function contractFindings(rules: ContractRules, before: Snapshot, changes: Changes): Finding[] {
  const allowed = picomatch([...rules.allow], { dot: true });
  const { compiled, findings } = compileForbid(rules);
  const allowText = rules.allow.join(', ');
  for (const file of [...changes.changed, ...changes.deleted].sort()) {
    if (!allowed(file)) findings.push(finding('contract', JudgeFindings.OutsideAllowed, { file, allow: allowText }, { file }));
    if (isRunnerHook(file) && before.has(file)) findings.push(finding('contract', JudgeFindings.RunnerHook, { file }, { file }));
  }
  for (const file of changes.changed) {
    const text = before.get(file);
    if (typeof text !== 'string') continue;
    for (const rule of compiled) {
      const m = rule.re.exec(text);
      if (!m) continue;
      // A pattern that starts with a newline matches at the line before; name the line the match ends on.
      // Stryker disable next-line StringLiteral: equivalent but for an empty match at a line end; a match starting elsewhere is on the same line one character on.
      const at = m.index + (m[0].startsWith('\n') ? 1 : 0);
      const line = lineOf(text, at);
      findings.push(finding('contract', JudgeFindings.ForbiddenPattern, { file, line, reason: rule.reason, pattern: rule.pattern }, { file, line }));
    }
  }
  return findings;
}
