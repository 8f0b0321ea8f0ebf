import picomatch from 'picomatch';
import { LintErrors } from '../../errors/lint-catalog.ts';
import type { StarterFile } from '../rule.ts';
import { defineRule, type Finding } from '../rule.ts';

type Params = Parameters<typeof LintErrors.SignalUnusable.message>[0];

/** The files a ledger signal greps. */
const LEDGER_FILES = new Set(['usage.jsonl', 'ledger.json']);

/** The starter files a signal would grep on an untouched workspace. */
function filesGrepped(signal: { in: string; files?: string[] | undefined }, starter: readonly StarterFile[]): StarterFile[] {
  if (signal.in === 'output') return [];
  const globs = signal.files?.length ? picomatch(signal.files, { dot: true }) : () => true;
  return starter.filter((f) => {
    if (f.text === undefined) return false;
    if (signal.in === 'ledger') return LEDGER_FILES.has(f.path.split('/').pop()!);
    return globs(f.path);
  });
}

export const failureSignal = defineRule({
  id: 'failure-signal',
  defaultSeverity: 'error',
  entry: LintErrors.SignalUnusable,
  kinds: ['takehome'],
  docs: {
    summary:
      'Each failure mode\'s signal can tell: its pattern compiles (JavaScript syntax, with its `flags`), does not match the empty string, and does not match the unchanged starter. For `in: files` and `in: diff` every starter file is grepped (only those matching `signal.files` when it is set): a diff signal that matches starter lines fires as soon as a candidate moves or reformats them. For `in: ledger` only a starter `usage.jsonl` or `ledger.json` is grepped. For `in: output` the starter check does not apply: the test output exists only when the tests run, which the rehearsal does (its floor and signal checks). It is reported at the signal\'s `pattern:`.',
    bad: 'signal:\n  pattern: "def parse_duration"   # the starter already has it\n  in: files',
    good: 'signal:\n  pattern: "PART\\\\.search\\\\("     # only the mutant adds it\n  in: files\n  files: ["src/**/*.py"]',
  },
  async check(ctx) {
    const failures = ctx.packet.failures;
    const out: Finding<Params>[] = [];
    const starter = await ctx.starterFiles();
    failures.data.modes.forEach((mode, i) => {
      const place = ctx.field('failures', ['modes', i, 'signal', 'pattern']);
      let re: RegExp;
      try {
        re = new RegExp(mode.signal.pattern, mode.signal.flags);
      } catch (err) {
        out.push({ place, params: { mode: mode.id, problem: 'compile', reason: (err as Error).message.replace(/^Invalid regular expression: /, '') } });
        return;
      }
      if (re.test('')) {
        out.push({ place, params: { mode: mode.id, problem: 'empty' } });
        return;
      }
      for (const file of filesGrepped(mode.signal, starter)) {
        const m = re.exec(file.text!);
        if (!m) continue;
        const line = file.text!.slice(0, m.index).split('\n').length;
        out.push({ place, params: { mode: mode.id, problem: 'starter', source: mode.signal.in as 'files' | 'diff' | 'ledger', file: `starter/${file.path}`, line } });
        return;
      }
    });
    return out;
  },
});
